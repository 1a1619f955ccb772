import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ADDRESS_SCHEMA, UINT_STRING } from '../../dto/build-parts.response';
import { TX_KINDS, TxKind } from '../broadcast-targets';

export const TX_STATUSES = ['PENDING', 'CONFIRMED', 'REVERTED', 'NOT_FOUND'] as const;
export type TxStatus = (typeof TX_STATUSES)[number];
/** What the relay answers: a transaction it sent or the chain holds, never NOT_FOUND. */
export const RELAY_STATUSES = ['PENDING', 'CONFIRMED', 'REVERTED'] as const;
export type RelayStatus = (typeof RELAY_STATUSES)[number];

const HASH = {
  pattern: '^0x[0-9a-fA-F]{64}$',
  example: '0xd1870c1ac612d3274380d28191ee9d3ef4157e4fcce5807186ce1e30f4b7c0c3',
};
const KIND = {
  enum: TX_KINDS,
  description:
    "What the transaction does, from its target and selector: swap (UniversalRouter), mint / increase / decrease / collect (PositionManager actions), approval (token -> Permit2), permit2-approval (Permit2 -> router). A Safe's execTransaction has its batch's kind (the trade after its approvals); `to` is then the Safe.",
};

export class RelayResponseDto {
  @ApiProperty({
    ...HASH,
    description: 'keccak256 of the signed bytes: the same bytes always answer the same hash',
  })
  txHash: string;
  @ApiProperty({
    enum: RELAY_STATUSES,
    description:
      'PENDING once sent; a transaction the chain already holds (the same bytes sent again) answers its current status.',
    example: 'PENDING',
  })
  status: RelayStatus;
  @ApiProperty({ ...ADDRESS_SCHEMA, description: 'The sender, recovered from the signature' })
  from: string;
  @ApiProperty({ ...ADDRESS_SCHEMA, description: 'The target contract' }) to: string;
  @ApiProperty({ example: 7 }) nonce: number;
  @ApiProperty({ ...KIND, example: 'swap' }) kind: TxKind;
}

export class SwapAmountsDto {
  @ApiProperty({ ...ADDRESS_SCHEMA, description: 'Token paid; the zero address is native ETH' })
  tokenIn: string;
  @ApiProperty({ ...UINT_STRING, description: 'Amount paid, smallest units' }) amountIn: string;
  @ApiProperty({ ...ADDRESS_SCHEMA, description: 'Token received; the zero address is native ETH' })
  tokenOut: string;
  @ApiProperty({
    ...UINT_STRING,
    description: 'Amount received, smallest units',
    example: '299100000',
  })
  amountOut: string;
}

export class RevertReasonDto {
  @ApiProperty({
    description:
      "SESSION_NOT_ACTIVE (the compliance hook refused: no active session), WALLET_SANCTIONED (the hook refused a wallet the sanctions oracle lists), SLIPPAGE_EXCEEDED, DEADLINE_PASSED, ALLOWANCE_INSUFFICIENT (Permit2 allowance expired or short), INSUFFICIENT_POOL_LIQUIDITY, SAFE_SIGNATURES_INVALID (a Safe refused its owners' signatures: too few, not owners, or for another nonce), SAFE_EXECUTION_FAILED (a call of a Safe's batch reverted; replayed as the Safe, the batch's own reason is answered instead where it can be read), or REVERTED (anything else; the message carries the decoded error)",
    example: 'SESSION_NOT_ACTIVE',
  })
  code: string;
  @ApiProperty({
    example:
      'the compliance hook refused it: wallet 0xa0Ee7A142d267C1f36714E4a8F75612F20a79720 has no active compliance session',
  })
  message: string;
  @ApiProperty({ description: 'What to do about it' }) hint: string;
}

export class TransactionStatusResponseDto {
  @ApiProperty(HASH) txHash: string;
  @ApiProperty({
    enum: TX_STATUSES,
    description:
      'NOT_FOUND: the node knows no such transaction (never sent, dropped, or not yet propagated); not an error.',
    example: 'CONFIRMED',
  })
  status: TxStatus;
  @ApiProperty({ type: 'integer', nullable: true, example: 1234 }) blockNumber: number | null;
  @ApiProperty({ description: 'latest block - blockNumber + 1; 0 until mined', example: 1 })
  confirmations: number;
  @ApiProperty({ ...UINT_STRING, nullable: true, example: '152000' }) gasUsed: string | null;
  @ApiProperty({
    ...UINT_STRING,
    nullable: true,
    description: 'Wei per gas paid',
    example: '1000000000',
  })
  effectiveGasPrice: string | null;
  @ApiProperty({ ...ADDRESS_SCHEMA, nullable: true }) from: string | null;
  @ApiProperty({ ...ADDRESS_SCHEMA, nullable: true }) to: string | null;
  @ApiProperty({ type: 'integer', nullable: true, example: 7 }) nonce: number | null;
  @ApiProperty({ ...KIND, nullable: true, example: 'swap' }) kind: TxKind | null;
  @ApiPropertyOptional({
    type: SwapAmountsDto,
    description:
      "A CONFIRMED swap: what the wallet actually paid and received (a Safe's execTransaction: the Safe's)",
  })
  swap?: SwapAmountsDto;
  @ApiPropertyOptional({ description: 'A CONFIRMED mint: the new position NFT id', example: '42' })
  tokenId?: string;
  @ApiPropertyOptional({
    type: RevertReasonDto,
    description: 'REVERTED: why, decoded as the relay simulation decodes it',
  })
  revert?: RevertReasonDto;
}
