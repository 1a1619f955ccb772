import { ApiProperty } from '@nestjs/swagger';
import { IsWalletAddress } from '../../../common/validation/is-evm-address';

export class SessionStatusParamsDto {
  @ApiProperty({
    description: 'Wallet address.',
    example: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
  })
  @IsWalletAddress()
  address: string;
}

export const SESSION_SOURCES = ['credential', 'attester'] as const;
export type SessionSource = (typeof SESSION_SOURCES)[number];

export class SessionStatusResponse {
  @ApiProperty({ enum: ['api_key', 'jwt'] }) authMethod: string;
  @ApiProperty({ example: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720' }) address: string;
  @ApiProperty({
    description:
      'Whether the compliance hook lets the wallet trade now: ComplianceRegistry.isActive at the latest block (chain time < activeUntil) and the wallet not on the sanctions list. A listed wallet is false whatever activeUntil says.',
  })
  active: boolean;
  @ApiProperty({
    description:
      "The network's sanctions oracle (compliance.sanctionsOracle) lists the wallet, read with the session: the hook refuses its trades and every activation refuses it (403 WALLET_SANCTIONED). false on a network without an oracle.",
  })
  sanctioned: boolean;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'Session end (ISO 8601, UTC) read on chain; null when none was ever opened or it was revoked.',
    example: '2026-11-22T14:30:00.000Z',
  })
  activeUntil: string | null;
  @ApiProperty({
    nullable: true,
    enum: SESSION_SOURCES,
    description:
      'Who opened the session on chain: `credential` (POST /verify with a credential proof), `attester` (opened otherwise: demo activation, another instance); null when not active.',
  })
  source: SessionSource | null;
  @ApiProperty({
    description: 'Timestamp (unix s) of the block the session was read at.',
    example: 1795300000,
  })
  chainTime: number;
}
