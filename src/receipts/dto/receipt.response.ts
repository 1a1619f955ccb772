import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

const ADDRESS = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';
const WETH = '0x77139Fa81c4434893f9D7e033C3e3903C46B820D';

export class BalanceChangeDto {
  @ApiProperty({
    description: "The token's address; 0x0000000000000000000000000000000000000000 is ETH",
    example: WETH,
  })
  token: string;
  @ApiProperty({
    description:
      "Signed decimal string in the token's smallest unit: negative is what the wallet gave",
    example: '-100000000000000000',
  })
  delta: string;
}

export class RuleResultDto {
  @ApiProperty({
    description:
      'sources, countries (the compliance policy, judged when the session was opened), session, sanctions (judged at the build); later features add theirs',
    example: 'sanctions',
  })
  rule: string;
  @ApiProperty({ enum: ['pass', 'fail', 'not_applicable', 'unknown'] }) result: string;
  @ApiProperty({ enum: ['build', 'activation'] }) at: string;
  @ApiProperty({ example: 'not listed by 0x1234... at block 120' }) detail: string;
}

export class ReceiptPolicyDto {
  @ApiProperty({
    nullable: true,
    type: Number,
    description:
      'The version of the compliance policy the session was opened under (0: the default policy, never set); null when this service did not open the session',
  })
  version: number | null;
  @ApiProperty({ type: [RuleResultDto] }) rules: RuleResultDto[];
}

export class SessionSourceDto {
  @ApiProperty({ enum: ['attestation', 'zk', 'demo', 'unknown'] }) kind: string;
  @ApiPropertyOptional({ example: 'verified-account' }) name?: string;
  @ApiPropertyOptional({ description: 'EAS attestation uid' }) uid?: string;
  @ApiPropertyOptional() activationTxHash?: string;
  @ApiPropertyOptional() activationBlock?: number;
}

export class SanctionsScreenDto {
  @ApiProperty({ nullable: true, type: String, description: 'The SanctionsList oracle read' })
  oracle: string | null;
  @ApiProperty({ description: 'The block it was read at' }) blockNumber: number;
  @ApiProperty() listed: boolean;
}

export class SimulationRevertDto {
  @ApiProperty({
    nullable: true,
    type: Number,
    description: 'The call that reverted (0-based: approvals first, the transaction last)',
  })
  callIndex: number | null;
  @ApiProperty({ example: 'SESSION_NOT_ACTIVE' }) code: string;
  @ApiProperty() reason: string;
}

export class ReceiptSimulationDto {
  @ApiProperty({
    enum: ['eth_call+stateOverride'],
    description:
      "The built calls, approvals first, executed from the wallet against one block's state by eth_call with a state override",
  })
  method: string;
  @ApiProperty() blockNumber: number;
  @ApiProperty({ enum: ['success', 'reverted', 'skipped', 'unavailable'] }) status: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description: "The transaction's gas as executed, before refunds",
    example: '151020',
  })
  gasUsed: string | null;
  @ApiProperty({ type: [BalanceChangeDto] }) balanceChanges: BalanceChangeDto[];
  @ApiPropertyOptional({ type: SimulationRevertDto }) revert?: SimulationRevertDto;
  @ApiPropertyOptional({ enum: ['SESSION_NOT_ACTIVE', 'BALANCE_INSUFFICIENT'] }) skipped?: string;
}

export class ReceiptToleranceDto {
  @ApiProperty({
    nullable: true,
    type: Number,
    description:
      "How far (basis points of the simulated change) an executed change may differ before it is flagged: the trade's slippage bound; null: no bound",
  })
  toleranceBps: number | null;
  @ApiProperty({
    type: [String],
    description: 'Tokens whose change must be exactly as simulated (the exact side of a swap)',
  })
  exact: string[];
}

export class DeviationDto {
  @ApiProperty() token: string;
  @ApiProperty() simulated: string;
  @ApiProperty() executed: string;
  @ApiProperty() toleranceBps: number;
}

export class ReceiptExecutionDto {
  @ApiProperty() txHash: string;
  @ApiProperty() blockNumber: number;
  @ApiProperty({ enum: ['success', 'reverted'] }) status: string;
  @ApiProperty({
    type: [BalanceChangeDto],
    description:
      "Decoded from the transaction's logs: the wallet's ERC-20 Transfers, and ETH from the transaction's value and the router's WETH unwraps (gas fees not included)",
  })
  balanceChanges: BalanceChangeDto[];
  @ApiProperty({ example: '148930' }) gasUsed: string;
  @ApiProperty({ description: 'Relayed by the service, or seen on chain' }) relayed: boolean;
  @ApiProperty({
    nullable: true,
    type: Boolean,
    description: 'Every change within tolerance of the simulation; null when reverted',
  })
  withinSlippage: boolean | null;
  @ApiProperty({ type: [DeviationDto] }) deviations: DeviationDto[];
}

class UnsignedCallDto {
  @ApiProperty() to: string;
  @ApiProperty() data: string;
  @ApiProperty() value: string;
}

class ReceiptTransactionDto extends UnsignedCallDto {
  @ApiProperty() gas: string;
}

class ReceiptSessionDto {
  @ApiProperty() active: boolean;
  @ApiProperty({ nullable: true, type: Number, description: 'Unix seconds (chain time)' })
  activeUntil: number | null;
}

/** The signed document (the JWS payload) and, once mined, `execution`. */
export class ReceiptDocumentDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 1, description: 'The layout version of this document' }) version: number;
  @ApiProperty({ example: 84532 }) chainId: number;
  @ApiProperty() accountId: string;
  @ApiProperty({ example: ADDRESS }) wallet: string;
  @ApiProperty() walletBound: boolean;
  @ApiProperty({ enum: ['swap', 'mint', 'increase', 'decrease', 'collect'] }) operation: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The request as built: the body with defaults applied (slippage, deadline)',
  })
  request: Record<string, unknown>;
  @ApiProperty({
    type: 'object',
    nullable: true,
    additionalProperties: true,
    description: "A swap's route (hops), a liquidity operation's pool",
  })
  route: Record<string, unknown> | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      "What the build answered about the trade (the response's operation fields): quoted amounts and limits, or ticks, liquidity and expected amounts",
  })
  terms: Record<string, unknown>;
  @ApiProperty({
    type: [UnsignedCallDto],
    description: 'The approvals the build asked for, in order; the transaction follows them',
  })
  approvals: UnsignedCallDto[];
  @ApiProperty({ type: ReceiptTransactionDto }) transaction: ReceiptTransactionDto;
  @ApiProperty({ description: "The transaction's deadline (unix s)" }) deadline: number;
  @ApiProperty({ type: ReceiptSessionDto }) session: ReceiptSessionDto;
  @ApiProperty({ type: ReceiptPolicyDto }) policy: ReceiptPolicyDto;
  @ApiProperty({ type: [SessionSourceDto], description: 'What the compliance session stood on' })
  sources: SessionSourceDto[];
  @ApiProperty({ type: SanctionsScreenDto }) sanctions: SanctionsScreenDto;
  @ApiProperty({ type: ReceiptSimulationDto }) simulation: ReceiptSimulationDto;
  @ApiProperty({ type: ReceiptToleranceDto }) tolerance: ReceiptToleranceDto;
  @ApiProperty({
    type: 'object',
    nullable: true,
    additionalProperties: true,
    description: 'The per-trade authorization issued with the build, when there was one',
  })
  authorization: Record<string, unknown> | null;
  @ApiProperty({
    type: 'object',
    nullable: true,
    additionalProperties: true,
    description: 'The approval that released the build, when there was one',
  })
  approval: Record<string, unknown> | null;
  @ApiProperty({ format: 'date-time' }) issuedAt: string;
  @ApiPropertyOptional({
    type: ReceiptExecutionDto,
    description:
      'Once the transaction is mined (relayed, or seen on chain); signed in executionJws',
  })
  execution?: ReceiptExecutionDto;
}

export class ReceiptBody {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({
    description:
      'The receipt as issued: a compact JWS (ES256, header kid and typ "compliance-receipt") whose payload is `receipt` without `execution`. Verify it with the keys at /.well-known/jwks.json.',
  })
  jws: string;
  @ApiProperty({ type: ReceiptDocumentDto }) receipt: ReceiptDocumentDto;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'Once mined: a compact JWS (typ "compliance-receipt-execution") of { receiptId, receiptDigest (base64url SHA-256 of jws), execution, observedAt }',
  })
  executionJws: string | null;
}

export class ReceiptResponse extends ReceiptBody {
  @ApiProperty({ enum: ['api_key', 'jwt'] }) authMethod: string;
}

export class ReceiptListResponse {
  @ApiProperty({ enum: ['api_key', 'jwt'] }) authMethod: string;
  @ApiProperty({ type: [ReceiptBody], description: 'One page, oldest first' }) items: ReceiptBody[];
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Pass as `after` for the next page; null on the last page',
  })
  nextAfter: string | null;
}

export class JwkDto {
  @ApiProperty({ enum: ['EC'] }) kty: string;
  @ApiProperty({ enum: ['P-256'] }) crv: string;
  @ApiProperty() x: string;
  @ApiProperty() y: string;
  @ApiProperty({ description: 'RFC 7638 thumbprint of the key; the JWS header names it' })
  kid: string;
  @ApiProperty({ enum: ['ES256'] }) alg: string;
  @ApiProperty({ enum: ['sig'] }) use: string;
}

export class JwksResponse {
  @ApiProperty({
    type: [JwkDto],
    description:
      'The current key first, then every earlier one (receipts signed before a rotation)',
  })
  keys: JwkDto[];
}
