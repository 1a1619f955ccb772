import { ApiPropertyOptional } from '@nestjs/swagger';
import { Matches, IsOptional } from 'class-validator';

/** Query of GET /defi/preflight/:address (design §10): which tokens the one batched read covers. */
export class PreflightQueryDto {
  @ApiPropertyOptional({
    description:
      "Comma-separated symbols of the market's tokens to read (GET /api/v1/defi/config lists them), e.g. WETH,tEURC; ETH (native) is always read. Absent: every token of the market. All in the same single batched chain read. A symbol the market does not list is 400 UNSUPPORTED_TOKEN naming those it does.",
    example: 'WETH,tUSDC',
  })
  @IsOptional()
  @Matches(/^[A-Za-z0-9._-]{1,32}(,[A-Za-z0-9._-]{1,32}){0,31}$/, {
    message: 'tokens must be comma-separated token symbols (at most 32), e.g. WETH,tUSDC',
  })
  tokens?: string;
}
