import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ADDRESS_SCHEMA, NextActionDto, SessionViewDto, UINT_STRING } from './build-parts.response';

class Balances {
  @ApiProperty({ ...UINT_STRING, description: 'Native ETH, wei' }) ETH: string;
  @ApiProperty(UINT_STRING) WETH: string;
  @ApiProperty(UINT_STRING) tUSDC: string;
}

class TokenAllowances {
  @ApiProperty(UINT_STRING) WETH: string;
  @ApiProperty(UINT_STRING) tUSDC: string;
}

class Allowances {
  @ApiProperty({
    type: TokenAllowances,
    description: 'Effective allowance to the UniversalRouter through Permit2',
  })
  swap: TokenAllowances;
  @ApiProperty({
    type: TokenAllowances,
    description: 'Effective allowance to the PositionManager through Permit2',
  })
  liquidity: TokenAllowances;
}

class PreflightPolicyDto {
  @ApiProperty() allowed: boolean;
  @ApiProperty({ example: 'countries.deny' }) decidingRule: string;
  @ApiProperty({ nullable: true, type: String, example: 'verified-country' }) source: string | null;
  @ApiProperty() message: string;
}

/** GET /api/v1/defi/preflight/:address. */
export class PreflightResponseDto {
  @ApiProperty({ enum: ['api_key', 'jwt'] }) authMethod: string;
  @ApiProperty(ADDRESS_SCHEMA) address: string;
  @ApiProperty({ type: 'integer', example: 84532 }) chainId: number;
  @ApiProperty({ description: 'Whether the wallet is bound to the calling account' })
  walletBound: boolean;
  @ApiProperty({ type: SessionViewDto }) session: SessionViewDto;
  @ApiProperty({ type: Balances }) balances: Balances;
  @ApiProperty({ type: Allowances }) allowances: Allowances;
  @ApiProperty({ type: [NextActionDto] }) nextActions: NextActionDto[];
  @ApiPropertyOptional({
    type: PreflightPolicyDto,
    description:
      "The wallet against your account's compliance policy (POST /api/v1/compliance/policy/evaluate has each source's result); absent while your account keeps the default policy.",
  })
  policy?: PreflightPolicyDto;
}
