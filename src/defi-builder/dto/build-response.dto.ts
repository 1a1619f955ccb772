/**
 * OpenAPI shapes of what the builders return (design §6; issue 11 fields). Documentation only:
 * the services return plain objects of these shapes. Shared parts: build-parts.response.ts.
 */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  CALLS_EXAMPLE,
  CallDto,
  SessionViewDto,
  TypedDataFieldDto,
  UnsignedTxDto,
} from './build-parts.response';
import { PermitBatchDto, PermitSingleDto } from './permit.dto';
import { SafeTransactionDto } from './safe-transaction.response';

export class PoolKeyDto {
  @ApiProperty() currency0: string;
  @ApiProperty() currency1: string;
  @ApiProperty() fee: number;
  @ApiProperty() tickSpacing: number;
  @ApiProperty() hooks: string;
}

/** One hop of a route (design §9 "Markets"): a pool, its direction, its quoted amounts. */
export class RouteHopDto {
  @ApiProperty({ description: 'The pool (v4 PoolId; GET /api/v1/defi/config lists the pools).' })
  poolId: string;
  @ApiProperty({ description: 'What the hop pays in: a pool currency (WETH where ETH is paid).' })
  tokenIn: string;
  @ApiProperty({
    description: 'What the hop pays out: a pool currency (WETH where ETH is received).',
  })
  tokenOut: string;
  @ApiProperty({ description: 'The pool fee, hundredths of a bip.', example: 3000 }) fee: number;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Smallest units of tokenIn, as quoted; null when no route could be quoted (a swap with an explicit limit).',
  })
  amountIn: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Smallest units of tokenOut, as quoted.',
  })
  amountOut: string | null;
}

export class RouteDto {
  @ApiProperty({
    type: [RouteHopDto],
    description:
      'In trade order: one hop through a listed pool, or two through one intermediate token. The best route of the pair: the largest output (EXACT_INPUT) or the smallest input (EXACT_OUTPUT).',
  })
  hops: RouteHopDto[];
}

export class WarningDto {
  @ApiProperty({
    enum: [
      'ALLOWANCE_INSUFFICIENT',
      'BALANCE_INSUFFICIENT',
      'SESSION_EXPIRES_BEFORE_DEADLINE',
      'SIMULATION_REVERTED',
    ],
  })
  code: string;
  @ApiProperty() message: string;
  @ApiProperty() hint: string;
}

export class ApprovalDto {
  @ApiProperty() token: string;
  @ApiProperty({ example: 'WETH' }) symbol: string;
  @ApiProperty({ description: 'Permit2 (ERC-20 step) or the router (Permit2 step).' })
  spender: string;
  @ApiProperty({ enum: ['Permit2', 'UniversalRouter', 'PositionManager'] }) spenderName: string;
  @ApiProperty({ enum: ['erc20', 'permit2'] }) kind: string;
  @ApiProperty() description: string;
  @ApiProperty({ type: UnsignedTxDto }) transaction: UnsignedTxDto;
  @ApiProperty({
    description:
      'true on a Permit2 approval (kind permit2) when the response offers permitData: signing permitData replaces this transaction. Always false on the ERC-20 -> Permit2 approval, which stays a transaction.',
  })
  replaceableByPermit: boolean;
}

export class SimulationDto {
  @ApiProperty({ type: Boolean, nullable: true, description: 'null: not run (see skipped).' })
  ok: boolean | null;
  @ApiPropertyOptional() revertCode?: string;
  @ApiPropertyOptional() revertReason?: string;
  @ApiPropertyOptional({
    enum: ['SESSION_NOT_ACTIVE', 'ALLOWANCE_INSUFFICIENT', 'BALANCE_INSUFFICIENT'],
  })
  skipped?: string;
}

export class PermitDomainDto {
  @ApiProperty({ enum: ['Permit2'] }) name: string;
  @ApiProperty({ type: 'integer', example: 84532 }) chainId: number;
  @ApiProperty({
    description: 'Permit2 on this chain',
    example: '0x000000000022D473030F116dDEE9F6B43aC78BA3',
  })
  verifyingContract: string;
}

class PermitSingleTypesDto {
  @ApiProperty({ type: [TypedDataFieldDto] }) PermitSingle: TypedDataFieldDto[];
  @ApiProperty({ type: [TypedDataFieldDto] }) PermitDetails: TypedDataFieldDto[];
}

class PermitBatchTypesDto {
  @ApiProperty({ type: [TypedDataFieldDto] }) PermitBatch: TypedDataFieldDto[];
  @ApiProperty({ type: [TypedDataFieldDto] }) PermitDetails: TypedDataFieldDto[];
}

const SIGN_PERMIT =
  'Sign with eth_signTypedData_v4 (ethers: signTypedData(domain, types, values); viem: signTypedData({ domain, types, primaryType, message: values })), then send values back unchanged';

/** Swap: a PermitSingle for the UniversalRouter; `values` is the request's `permit` as is. */
export class SwapPermitDataDto {
  @ApiProperty({ type: PermitDomainDto, description: 'EIP-712 domain: Permit2 on this chain.' })
  domain: PermitDomainDto;
  @ApiProperty({ type: PermitSingleTypesDto, description: 'EIP-712 types (no EIP712Domain).' })
  types: PermitSingleTypesDto;
  @ApiProperty({ enum: ['PermitSingle'] }) primaryType: 'PermitSingle';
  @ApiProperty({
    type: PermitSingleDto,
    description: `The message. ${SIGN_PERMIT} as permit, with permitSignature.`,
  })
  values: PermitSingleDto;
}

/** Mint: a PermitBatch for the PositionManager; `values` is the request's `permitBatch` as is. */
export class MintPermitDataDto {
  @ApiProperty({ type: PermitDomainDto, description: 'EIP-712 domain: Permit2 on this chain.' })
  domain: PermitDomainDto;
  @ApiProperty({ type: PermitBatchTypesDto, description: 'EIP-712 types (no EIP712Domain).' })
  types: PermitBatchTypesDto;
  @ApiProperty({ enum: ['PermitBatch'] }) primaryType: 'PermitBatch';
  @ApiProperty({
    type: PermitBatchDto,
    description: `The message. ${SIGN_PERMIT} as permitBatch, with permitSignature.`,
  })
  values: PermitBatchDto;
}

const PERMIT_DATA_DESCRIPTION =
  'Present when the Permit2 allowance of the spender is short and the request carried no signed permit: sign it instead of sending the approvals marked replaceableByPermit (the ERC-20 -> Permit2 approvals stay transactions).';

export class AuthorizationDto {
  @ApiProperty({
    description: 'Its id: the EIP-712 digest of the TradeAuthorization (receipts name it).',
    example: `0x${'ab'.repeat(32)}`,
  })
  id: string;
  @ApiProperty({
    description: 'The authorizer that signed it: one of GET /api/v1/defi/config `authorizers`.',
    example: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  })
  signer: string;
  @ApiProperty({ description: 'Unix seconds (chain clock) after which the hook refuses it.' })
  deadline: number;
}

export class BuildResponseDto {
  @ApiProperty({ enum: ['api_key', 'jwt'] }) authMethod: string;
  @ApiProperty({ example: 84532 }) chainId: number;
  @ApiProperty({
    format: 'uuid',
    description:
      'The compliance receipt of this build: GET /api/v1/compliance/receipts/{receiptId} answers it signed (JWS, ES256), with what the built calls do to the wallet when simulated, the rules judged, and, once the transaction is mined, what it did.',
    example: '01964b1e-7c3a-7d21-9f0e-5a1b2c3d4e5f',
  })
  receiptId: string;
  @ApiProperty({ type: UnsignedTxDto }) transaction: UnsignedTxDto;
  @ApiProperty({ enum: ['eth_estimateGas', 'calibrated'] }) gasSource: string;
  @ApiProperty() walletBound: boolean;
  @ApiProperty({ type: SessionViewDto }) session: SessionViewDto;
  @ApiProperty({ type: [WarningDto] }) warnings: WarningDto[];
  @ApiProperty({
    type: [ApprovalDto],
    description:
      'Broadcast these first, in order (same fields as preflight nextActions); or, when permitData is present, sign it instead of those marked replaceableByPermit.',
  })
  approvals: ApprovalDto[];
  @ApiProperty({
    type: [CallDto],
    description:
      'The whole sequence without a permit: approvals[] in order, then transaction, as EIP-5792 calls for wallet_sendCalls (atomic on a smart wallet; chainId above). Always present, also with buildOnly or without a session (then the last call reverts until a session is active). A plain wallet may send them one by one, each after the previous is mined, estimating the gas of each (calls carry none; transaction.gas was planned before the approvals). When the request carried a signed permit, the Permit2 approvals are absent and the transaction embeds the permit.',
    example: CALLS_EXAMPLE,
  })
  calls: CallDto[];
  @ApiPropertyOptional({
    type: SafeTransactionDto,
    description:
      'Present when userAddress is a Safe (v1.4.1, read in the same batch as the balances): calls as ONE Safe transaction (a MultiSendCallOnly batch) for its owners to sign; send execTransaction with their signatures from any account, e.g. through POST /api/v1/defi/transactions. A Safe gets no permitData: it approves Permit2 on chain, inside this batch.',
  })
  safeTransaction?: SafeTransactionDto;
  @ApiProperty({ type: SimulationDto }) simulation: SimulationDto;
  @ApiProperty({ type: PoolKeyDto }) poolKey: PoolKeyDto;
  @ApiProperty({ description: 'Unix seconds (chain clock).' }) deadline: number;
  @ApiPropertyOptional({
    type: AuthorizationDto,
    description:
      'Present when your account\'s policy enforces its trade rules on chain (trading.enforcement "onchain", hook v3): the per-trade authorization this build carries in its hookData, bound to this wallet, pool, direction and amount, single use. Send the transaction as built before its deadline; a changed amount or pool, a second send, or a late one reverts.',
  })
  authorization?: AuthorizationDto;
}

export class SwapResponseDto extends BuildResponseDto {
  @ApiPropertyOptional({ type: SwapPermitDataDto, description: PERMIT_DATA_DESCRIPTION })
  permitData?: SwapPermitDataDto;
  @ApiProperty({ enum: ['EXACT_INPUT', 'EXACT_OUTPUT'] }) tradeType: string;
  @ApiProperty({ description: 'As sent (the zero address for native ETH).' }) tokenIn: string;
  @ApiProperty() tokenOut: string;
  @ApiProperty() zeroForOne: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "Smallest units of tokenIn, named as in the quote answer: the exact input (EXACT_INPUT), or the V4Quoter's quote of the input (EXACT_OUTPUT; null when the quote failed and the request set amountInMaximum itself).",
  })
  amountIn: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "Smallest units of tokenOut, named as in the quote answer: the exact output (EXACT_OUTPUT), or the V4Quoter's quote of the output (EXACT_INPUT; null when the quote failed and the request set amountOutMinimum itself).",
  })
  amountOut: string | null;
  @ApiPropertyOptional({ description: 'EXACT_INPUT: the least the swap pays out.' })
  minAmountOut?: string;
  @ApiPropertyOptional({
    description: 'EXACT_OUTPUT: the most the swap takes (allowance, balance and value use it).',
  })
  maxAmountIn?: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    deprecated: true,
    description:
      'Deprecated (removed in the next release): EXACT_INPUT only, the same value as amountOut.',
  })
  quotedAmountOut?: string | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    deprecated: true,
    description:
      'Deprecated (removed in the next release): EXACT_OUTPUT only, the same value as amountIn.',
  })
  quotedAmountIn?: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'null when the caller set the limit.' })
  slippageBps: number | null;
  @ApiProperty({
    type: RouteDto,
    description:
      'The route the swap takes; poolKey and zeroForOne are its first hop. A pair with no route is 400 NO_ROUTE.',
  })
  route: RouteDto;
}

export class MintResponseDto extends BuildResponseDto {
  @ApiPropertyOptional({ type: MintPermitDataDto, description: PERMIT_DATA_DESCRIPTION })
  permitData?: MintPermitDataDto;
  @ApiProperty({ type: 'integer', example: -600 }) tickLower: number;
  @ApiProperty({ type: 'integer', example: 600 }) tickUpper: number;
  @ApiProperty({ description: 'Liquidity computed from the amounts at the current price' })
  liquidity: string;
  @ApiProperty({ description: 'The most the mint may take of currency0 (SETTLE_PAIR bound)' })
  amount0Max: string;
  @ApiProperty({ description: 'The most the mint may take of currency1' }) amount1Max: string;
  @ApiProperty({
    description: 'What the mint takes at the build-time price (the rest stays in the wallet)',
  })
  expectedAmount0: string;
  @ApiProperty() expectedAmount1: string;
  @ApiProperty({ description: 'Pool price at build time (Q64.96)' }) sqrtPriceX96: string;
  @ApiProperty({ type: 'integer' }) currentTick: number;
  @ApiProperty({ description: 'Who receives the position NFT' }) owner: string;
  @ApiProperty({
    description:
      'A PREDICTION of the position NFT id (PositionManager.nextTokenId read in the same batch): another mint landing first takes it, so read the id from the Transfer log of your receipt.',
    example: '42',
  })
  expectedTokenId: string;
}
