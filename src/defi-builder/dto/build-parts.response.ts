/** Response parts shared by the DeFi endpoints' documented schemas (design §6). */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export const ADDRESS_SCHEMA = {
  pattern: '^0x[0-9a-fA-F]{40}$',
  example: '0x4200000000000000000000000000000000000006',
};
export const UINT_STRING = {
  pattern: '^[0-9]+$',
  description: 'A non-negative integer as a decimal string',
  example: '1000000000000000000',
};

export class UnsignedTxDto {
  @ApiProperty({ ...ADDRESS_SCHEMA, description: 'The contract to call' }) to: string;
  @ApiProperty({ description: 'Calldata, 0x-prefixed hex', example: '0x3593564c…' }) data: string;
  @ApiProperty({ ...UINT_STRING, description: 'Wei to send', example: '0' }) value: string;
  @ApiProperty({ ...UINT_STRING, description: 'Gas limit', example: '210000' }) gas: string;
}

/** Example addresses (Base Sepolia): WETH, Permit2, the UniversalRouter. */
const EXAMPLE_WETH = '0x4200000000000000000000000000000000000006';
const EXAMPLE_PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3';
const EXAMPLE_ROUTER = '0x492E6456D9528771018DeB9E87ef7750EF184104';

/** A swap needing both approvals: ERC20.approve(Permit2), Permit2.approve(WETH, router), the swap. */
export const CALLS_EXAMPLE = [
  {
    to: EXAMPLE_WETH,
    data: '0x095ea7b3000000000000000000000000000000000022d473030f116ddee9f6b43ac78ba3ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff',
    value: '0',
  },
  {
    to: EXAMPLE_PERMIT2,
    data: '0x87517c450000000000000000000000004200000000000000000000000000000000000006000000000000000000000000492e6456d9528771018deb9e87ef7750ef184104000000000000000000000000ffffffffffffffffffffffffffffffffffffffff000000000000000000000000000000000000000000000000000000006955b900',
    value: '0',
  },
  { to: EXAMPLE_ROUTER, data: '0x3593564c…', value: '0' },
];

/** One call of an EIP-5792 batch (wallet_sendCalls): no gas, the wallet plans it. */
export class CallDto {
  @ApiProperty({ ...ADDRESS_SCHEMA, description: 'The contract to call' }) to: string;
  @ApiProperty({ description: 'Calldata, 0x-prefixed hex', example: '0x095ea7b3…' }) data: string;
  @ApiProperty({
    ...UINT_STRING,
    description:
      'Wei to send, a decimal string like transaction.value. wallet_sendCalls over raw JSON-RPC takes hex: `0x${BigInt(value).toString(16)}` (viem: BigInt(value)).',
    example: '0',
  })
  value: string;
}

/** One field of an EIP-712 type (Permit2's and the Safe's typed data). */
export class TypedDataFieldDto {
  @ApiProperty({ example: 'details' }) name: string;
  @ApiProperty({ example: 'PermitDetails' }) type: string;
}

export class SessionViewDto {
  @ApiProperty({ description: 'Whether the compliance session is active on the chain clock' })
  active: boolean;
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'End of the session (ISO-8601); null when none was ever opened or it was revoked',
  })
  activeUntil: string | null;
}

/** The session as GET /defi/preflight shows it: with the sanctions oracle's answer (design §10). */
export class PreflightSessionDto extends SessionViewDto {
  @ApiProperty({
    description:
      "The network's sanctions oracle lists the wallet (read in the same batch, fail closed): then active is false whatever the registry still holds (activeUntil), every build, relay and activation is 403 WALLET_SANCTIONED, and the screening watcher revokes the session.",
  })
  sanctioned: boolean;
}

export class NextActionDto {
  @ApiProperty({ enum: ['approve', 'activateSession', 'bindWallet'] }) action: string;
  @ApiProperty({ description: 'What to do, in words' }) description: string;
  @ApiPropertyOptional({ enum: ['swap', 'liquidity'], description: 'approve: which router' })
  use?: string;
  @ApiPropertyOptional({ ...ADDRESS_SCHEMA, description: 'approve: the token' }) token?: string;
  @ApiPropertyOptional({ example: 'WETH', description: 'approve: the token symbol' })
  symbol?: string;
  @ApiPropertyOptional({ ...ADDRESS_SCHEMA, description: 'approve: who is approved' })
  spender?: string;
  @ApiPropertyOptional({ type: UnsignedTxDto, description: 'approve: the unsigned transaction' })
  transaction?: UnsignedTxDto;
  @ApiPropertyOptional({ type: [String], description: 'activateSession: the endpoints to call' })
  endpoints?: string[];
  @ApiPropertyOptional({ description: 'bindWallet: the endpoint to call' }) endpoint?: string;
}
