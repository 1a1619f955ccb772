import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ADDRESS_SCHEMA,
  NextActionDto,
  PreflightSessionDto,
  UINT_STRING,
} from './build-parts.response';

/** Amounts by token symbol: every token read (the market's, or those ?tokens= names). */
const AMOUNT = { type: 'string', pattern: UINT_STRING.pattern } as const;
const BY_SYMBOL = { type: 'object', additionalProperties: AMOUNT } as const;

/** ETH (always) and each token read, by symbol. */
type Balances = { ETH: string } & Record<string, string>;

class Allowances {
  @ApiProperty({
    ...BY_SYMBOL,
    description:
      'Effective allowance to the UniversalRouter through Permit2, by token symbol (smallest units)',
    example: {
      WETH: '0',
      tUSDC: '115792089237316195423570985008687907853269984665640564039457584007913129639935',
    },
  })
  swap: Record<string, string>;
  @ApiProperty({
    ...BY_SYMBOL,
    description:
      'Effective allowance to the PositionManager through Permit2, by token symbol (smallest units)',
    example: { WETH: '0', tUSDC: '0' },
  })
  liquidity: Record<string, string>;
}

class PreflightPolicyDto {
  @ApiProperty() allowed: boolean;
  @ApiProperty({ example: 'countries.deny' }) decidingRule: string;
  @ApiProperty({ nullable: true, type: String, example: 'verified-country' }) source: string | null;
  @ApiProperty() message: string;
}

class PreflightTradeLimitDto {
  @ApiProperty({ example: 'WETH' }) token: string;
  @ApiProperty({ type: String, nullable: true, example: '2', description: 'Whole units.' })
  perTrade: string | null;
  @ApiProperty({ type: String, nullable: true, example: '5', description: 'Whole units.' })
  perDay: string | null;
  @ApiProperty({
    example: '1.5',
    description:
      "What the account's wallets gave of it in the rolling 24 h, whole units: trades mined plus builds answered and not yet mined nor expired.",
  })
  used: string;
  @ApiProperty({ type: String, nullable: true, example: '3.5', description: 'null: no perDay.' })
  remaining: string | null;
}

class PreflightTradingDto {
  @ApiProperty({ enum: ['onchain', 'service'] }) enforcement: string;
  @ApiProperty({
    type: [String],
    nullable: true,
    description: 'The tokens the account may trade; null: every token.',
  })
  tokens: string[] | null;
  @ApiProperty({ type: [PreflightTradeLimitDto] }) limits: PreflightTradeLimitDto[];
}

/** GET /api/v1/defi/preflight/:address. */
export class PreflightResponseDto {
  @ApiProperty({ enum: ['api_key', 'jwt'] }) authMethod: string;
  @ApiProperty(ADDRESS_SCHEMA) address: string;
  @ApiProperty({ type: 'integer', example: 84532 }) chainId: number;
  @ApiProperty({ description: 'Whether the wallet is bound to the calling account' })
  walletBound: boolean;
  @ApiProperty({ type: PreflightSessionDto }) session: PreflightSessionDto;
  @ApiProperty({
    type: 'object',
    properties: { ETH: { ...AMOUNT, description: 'Native ETH, wei (always read)' } },
    required: ['ETH'],
    selfRequired: true,
    additionalProperties: AMOUNT,
    description:
      'ETH (native, wei) and each token read by its symbol (smallest units): every token of the market, or those ?tokens= names, from the same single batched chain read.',
    example: {
      ETH: '10000000000000000000',
      WETH: '100000000000000000000',
      tUSDC: '1000000000000',
      tWBTC: '100000000',
      tEURC: '1000000000000',
    },
  })
  balances: Balances;
  @ApiProperty({ type: Allowances }) allowances: Allowances;
  @ApiProperty({ type: [NextActionDto] }) nextActions: NextActionDto[];
  @ApiPropertyOptional({
    type: PreflightPolicyDto,
    description:
      "The wallet against your account's compliance policy (POST /api/v1/compliance/policy/evaluate has each source's result); absent while your account keeps the default policy.",
  })
  policy?: PreflightPolicyDto;
  @ApiPropertyOptional({
    type: PreflightTradingDto,
    description:
      "Your account's trade rules (PUT /api/v1/compliance/policy `trading`) and each limit's use of the rolling 24 h across your wallets; a build over a limit is 403 TRADE_LIMIT_EXCEEDED, a token outside `tokens` 403 TOKEN_NOT_ALLOWED. Absent while your policy has no trade rules.",
  })
  trading?: PreflightTradingDto;
}
