import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';

/** Query of swap and liquidity: `buildOnly=true` builds even without an active session (spec §4 rule 2). */
export class BuildQueryDto {
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
