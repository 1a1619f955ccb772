import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { ROLES } from '../../../auth/roles';
import {
  IsSetOf,
  NestedObject,
  UnlessAbsent,
} from '../../../common/validation/composed-validators';
import { ENFORCEMENTS, type Enforcement } from '../trading-rules';
import { IsEvmAddress } from '../../../common/validation/is-evm-address';

/** The embedded devnet's WETH and tUSDC, as the swap's examples (defi-builder/dto/request-examples.ts). */
const DEVNET_WETH = '0x77139Fa81c4434893f9D7e033C3e3903C46B820D';
const DEVNET_TUSDC = '0x993706027b3eC9d8b03A962CAaa15C133A52707c';
const SYMBOL = /^[A-Za-z0-9.]{1,16}$/;
const SYMBOL_MESSAGE = 'must be a token symbol of the market (e.g. WETH; ETH counts as WETH)';
const AMOUNT = /^(0|[1-9]\d{0,38})(\.\d{1,36})?$/;
const AMOUNT_MESSAGE =
  'must be a decimal string in whole token units (e.g. "2.5"), within the token\'s decimals';
const SYMBOL_DOC =
  'A token symbol of the market (GET /api/v1/defi/config; any case, stored as the market spells it). ETH and WETH are one token: ETH is stored as WETH.';

/** An array member of nested objects: each validated member by member (null refused). */
function NestedArray(type: () => new () => object, max: number): PropertyDecorator {
  return applyDecorators(
    Type(type),
    ValidateNested({ each: true }),
    IsObject({ each: true }),
    ArrayMaxSize(max),
    IsArray(),
    UnlessAbsent(),
  );
}

export class TradeTokensDto {
  @ApiProperty({
    type: [String],
    example: ['WETH', 'tUSDC'],
    description: `The only tokens the account's wallets may trade (give or receive; 403 TOKEN_NOT_ALLOWED otherwise). ${SYMBOL_DOC}`,
  })
  @IsArray()
  @ArrayMaxSize(64)
  @IsString({ each: true })
  @Matches(SYMBOL, { each: true, message: `each value ${SYMBOL_MESSAGE}` })
  allow: string[];
}

export class TradeLimitDto {
  @ApiProperty({ example: 'WETH', description: SYMBOL_DOC })
  @IsString()
  @Matches(SYMBOL, { message: `token ${SYMBOL_MESSAGE}` })
  token: string;

  @ApiPropertyOptional({
    example: '2',
    description:
      'Most a wallet gives of this token in one trade, in whole units (a swap input; for exact output its amountInMaximum; a liquidity addition its amounts). 403 TRADE_LIMIT_EXCEEDED (window "trade") above it.',
  })
  @UnlessAbsent()
  @IsString()
  @MaxLength(80)
  @Matches(AMOUNT, { message: `perTrade ${AMOUNT_MESSAGE}` })
  perTrade?: string;

  @ApiPropertyOptional({
    example: '5',
    description:
      'Most the account\'s wallets give of this token together in any 24 hours, in whole units: trades mined in the window plus builds authorized and not yet expired or mined. 403 TRADE_LIMIT_EXCEEDED (window "24h") for the build that would cross it.',
  })
  @UnlessAbsent()
  @IsString()
  @MaxLength(80)
  @Matches(AMOUNT, { message: `perDay ${AMOUNT_MESSAGE}` })
  perDay?: string;
}

export class ApprovalThresholdDto {
  @ApiProperty({ example: 'WETH', description: SYMBOL_DOC })
  @IsString()
  @Matches(SYMBOL, { message: `token ${SYMBOL_MESSAGE}` })
  token: string;

  @ApiProperty({
    example: '10',
    description: 'A trade giving more than this, in whole units, needs approvals.',
  })
  @IsString()
  @MaxLength(80)
  @Matches(AMOUNT, { message: `amount ${AMOUNT_MESSAGE}` })
  amount: string;
}

export class TradeApprovalsDto {
  @ApiProperty({ type: [ApprovalThresholdDto] })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(64)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ApprovalThresholdDto)
  above: ApprovalThresholdDto[];

  @ApiProperty({ example: 2, minimum: 1, maximum: 10, description: 'Approvals needed.' })
  @IsInt()
  @Min(1)
  @Max(10)
  quorum: number;

  @ApiProperty({
    enum: ROLES,
    isArray: true,
    example: ['owner', 'admin'],
    description: "Members' roles whose approval counts.",
  })
  @IsSetOf(ROLES)
  roles: string[];

  @ApiProperty({
    example: 3600,
    minimum: 60,
    maximum: 7 * 86_400,
    description: 'How long a request for approval stays open, seconds.',
  })
  @IsInt()
  @Min(60)
  @Max(7 * 86_400)
  ttlSeconds: number;
}

/** `trading` of the account policy (design §10). */
export class TradingRulesDto {
  @ApiProperty({
    enum: ENFORCEMENTS,
    example: 'service',
    description:
      "onchain: hook v3 refuses the account's wallets any trade in our pools without a per-trade authorization the service signs with each build; service: the rules are applied to builds only (trades sent around the service are not seen).",
  })
  @IsIn(ENFORCEMENTS)
  enforcement: Enforcement;

  @ApiPropertyOptional({ type: TradeTokensDto, description: 'Absent: every token of the market.' })
  @NestedObject(() => TradeTokensDto, { optional: true })
  tokens?: TradeTokensDto;

  @ApiPropertyOptional({
    type: [TradeLimitDto],
    description: 'One entry per token, perTrade and/or perDay. Absent: no limit.',
  })
  @NestedArray(() => TradeLimitDto, 64)
  limits?: TradeLimitDto[];

  @ApiPropertyOptional({
    type: TradeApprovalsDto,
    description: 'Trades that need approvals by members first (issue 55). Absent: none.',
  })
  @NestedObject(() => TradeApprovalsDto, { optional: true })
  approvals?: TradeApprovalsDto;
}

const NATIVE_NOTE =
  ' 0x0000000000000000000000000000000000000000 is native ETH (WETH for the rules).';

/** POST /compliance/policy/evaluate's draft trade: a swap request's fields (issue 54). */
export class DraftTradeDto {
  @ApiProperty({
    description: `Token given: a supported token address.${NATIVE_NOTE}`,
    example: DEVNET_WETH,
  })
  @IsEvmAddress()
  tokenIn: string;

  @ApiProperty({
    description: `Token received: a supported token address.${NATIVE_NOTE}`,
    example: DEVNET_TUSDC,
  })
  @IsEvmAddress()
  tokenOut: string;

  @ApiProperty({
    description:
      'As in a swap: EXACT_INPUT the amount of tokenIn, EXACT_OUTPUT the amount of tokenOut; smallest units.',
    example: '100000000000000000',
  })
  @IsString()
  @Matches(/^[1-9]\d{0,38}$/, { message: 'amount must be a positive integer in smallest units' })
  amount: string;

  @ApiPropertyOptional({ enum: ['EXACT_INPUT', 'EXACT_OUTPUT'], default: 'EXACT_INPUT' })
  @UnlessAbsent()
  @IsIn(['EXACT_INPUT', 'EXACT_OUTPUT'])
  tradeType?: 'EXACT_INPUT' | 'EXACT_OUTPUT';

  @ApiPropertyOptional({
    description:
      'EXACT_OUTPUT: required here (a dry run reads no quote): what the limits judge, smallest units of tokenIn.',
    example: '101000000000000000',
  })
  @UnlessAbsent()
  @IsString()
  @Matches(/^[1-9]\d{0,38}$/, {
    message: 'amountInMaximum must be a positive integer in smallest units',
  })
  amountInMaximum?: string;
}

class TokenAmountResponse {
  @ApiProperty({ example: 'WETH' }) token: string;
  @ApiProperty({ example: '0.1', description: 'Whole units.' }) amount: string;
}

class DailyLimitUseResponse {
  @ApiProperty({ example: 'WETH' }) token: string;
  @ApiProperty({ example: '5' }) perDay: string;
  @ApiProperty({
    example: '1.5',
    description:
      'Whole units counted in the rolling 24 h: mined trades plus builds authorized and not yet expired.',
  })
  used: string;
  @ApiProperty({ example: '3.5' }) remaining: string;
}

export class TradeEvaluationResponse {
  @ApiProperty() allowed: boolean;
  @ApiProperty({
    nullable: true,
    type: String,
    enum: ['trading.tokens.allow', 'trading.limits.perTrade', 'trading.limits.perDay'],
    description: 'The rule that would refuse the trade; null when none would.',
  })
  decidingRule: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    enum: ['TOKEN_NOT_ALLOWED', 'TRADE_LIMIT_EXCEEDED'],
    description: 'The code a build of this trade would be refused with.',
  })
  code: string | null;
  @ApiProperty() message: string;
  @ApiProperty({
    type: 'array',
    items: { type: 'object' },
    description:
      'As the refusal would carry them: `{ token, limit, window, used, requested }` or `{ token, allowed }`; empty when allowed.',
  })
  details: Record<string, unknown>[];
  @ApiProperty({ type: [TokenAmountResponse], description: 'What the trade gives.' })
  gives: TokenAmountResponse[];
  @ApiProperty({ type: [DailyLimitUseResponse] })
  dailyLimits: DailyLimitUseResponse[];
}
