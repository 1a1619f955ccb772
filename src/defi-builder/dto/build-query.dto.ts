import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { CALLS_FORMATS, type CallsFormat } from '../pipeline/wallet-send-calls';

/** Query of every build: the answer's format (design §10). */
export class CallsFormatQueryDto {
  @ApiPropertyOptional({
    description:
      "eip5792: answer only the parameter object of EIP-5792 wallet_sendCalls (version 2.0.0): { version, chainId (hex), from, atomicRequired, calls: [{ to, data, value (hex) }] }, the build's calls (approvals, then the transaction) to pass as is to a wallet or custody platform that batches natively. No other field (wallets validate the object strictly): the default answer carries the quote, warnings and the Safe transaction. atomicRequired is true when there is more than one call (approvals and their trade land together).",
    enum: CALLS_FORMATS,
  })
  @IsOptional()
  @IsIn(CALLS_FORMATS, { message: `callsFormat must be one of: ${CALLS_FORMATS.join(', ')}` })
  callsFormat?: CallsFormat;
}

/** Query of swap and liquidity: `buildOnly=true` builds even without an active session (spec §4 rule 2). */
export class BuildQueryDto extends CallsFormatQueryDto {
  @ApiPropertyOptional({
    description:
      'true: skip the SESSION_NOT_ACTIVE refusal and return the unsigned transaction anyway (it reverts on-chain until a session is active).',
    enum: ['true', 'false'],
  })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean({ message: 'buildOnly must be "true" or "false"' })
  buildOnly?: boolean;
}
