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
