import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  Allow,
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsString,
  Matches,
  Max,
  Min,
} from 'class-validator';
import { NestedObject, UnlessAbsent } from '../../../common/validation/composed-validators';
import { IsWalletAddress } from '../../../common/validation/is-evm-address';
import { DraftTradeDto, TradeEvaluationResponse, TradingRulesDto } from './trading-policy.dto';

export { DraftTradeDto } from './trading-policy.dto';
import { POLICY_RULES, UNKNOWN_COUNTRY, type UnknownCountry } from '../policy-rules';

const COUNTRY = /^[A-Za-z]{2}$/;
const COUNTRY_MESSAGE = 'each country must be an ISO 3166-1 alpha-2 code (two letters, e.g. FR)';

export class PolicySourcesDto {
  @ApiProperty({
    enum: ['any', 'all'],
    description: 'any: one of the named sources suffices; all: every named source is needed.',
  })
  @IsIn(['any', 'all'])
  mode: 'any' | 'all';

  @ApiProperty({
    type: [String],
    example: ['verified-account'],
    description:
      'Source names: attestation sources of the network file, ZK issuers (`default` today), `demo` on the test network. Empty: any accepted source.',
  })
  @IsArray()
  @ArrayMaxSize(32)
  @IsString({ each: true })
  @Matches(/^[a-z0-9][a-z0-9._-]{0,63}$/, { each: true })
  names: string[];
}

export class PolicyCountriesDto {
  @ApiPropertyOptional({
    type: [String],
    example: ['FR', 'DE'],
    description:
      'ISO 3166-1 alpha-2 (two letters, any case; stored upper-case): only wallets attested in one of these (a country source, e.g. Verified Country) are allowed. Absent or empty: no allow list. Not null.',
  })
  @UnlessAbsent()
  @IsArray()
  @ArrayMaxSize(300)
  @Matches(COUNTRY, { each: true, message: COUNTRY_MESSAGE })
  allow?: string[];

  @ApiPropertyOptional({
    type: [String],
    example: ['KP'],
    description:
      'ISO 3166-1 alpha-2 (two letters, any case; stored upper-case): wallets attested in one of these are refused. Absent or empty: no deny list. Not null.',
  })
  @UnlessAbsent()
  @IsArray()
  @ArrayMaxSize(300)
  @Matches(COUNTRY, { each: true, message: COUNTRY_MESSAGE })
  deny?: string[];

  @ApiPropertyOptional({
    enum: UNKNOWN_COUNTRY,
    description:
      'A wallet whose country no source establishes (no country attestation of an accepted attester, or it is revoked or expired): `refuse` (rule countries.unknown) or `allow` (the country rules do not apply to it). Absent: `refuse` when allow or deny lists a country (stored and answered so), else `allow`.',
  })
  @UnlessAbsent()
  @IsIn(UNKNOWN_COUNTRY)
  unknown?: UnknownCountry;
}

/**
 * The rules of a policy, one nested class per member; a new member (an optional nested object)
 * is one more property here and one more line in policy-normalize.ts.
 */
export class CompliancePolicyRulesDto {
  @ApiProperty({ type: PolicySourcesDto })
  @NestedObject(() => PolicySourcesDto)
  sources: PolicySourcesDto;

  @ApiProperty({ type: PolicyCountriesDto, description: 'Required; `{}` for no country rule.' })
  @NestedObject(() => PolicyCountriesDto)
  countries: PolicyCountriesDto;

  @ApiProperty({
    example: 3600,
    description:
      'Refuse to open a session shorter than this many seconds (e.g. an attestation about to expire); 0 = off.',
  })
  @IsInt()
  @Min(0)
  @Max(366 * 24 * 3600)
  minSessionSeconds: number;

  @ApiPropertyOptional({
    type: TradingRulesDto,
    description:
      "Trade rules (design §10): allowed tokens, per-token limits per trade and per rolling 24 hours across the account's wallets, approvals, and where they are enforced. Absent: the account's wallets trade with their session alone. Not null.",
  })
  @NestedObject(() => TradingRulesDto, { optional: true })
  trading?: TradingRulesDto;
}

class KnownSource {
  @ApiProperty({ example: 'verified-account' }) name: string;
  @ApiProperty({ enum: ['account', 'country', 'zk', 'demo'] }) kind: string;
}

const READ_ONLY =
  'Read-only: answered by GET, accepted and ignored in a PUT body (so a GET answer can be sent back as is).';

/** The PUT body: the rules, plus GET's read-only members, accepted so its answer can be PUT back. */
export class CompliancePolicyDto extends CompliancePolicyRulesDto {
  @ApiPropertyOptional({ enum: ['api_key', 'jwt'], readOnly: true, description: READ_ONLY })
  @Allow()
  authMethod?: unknown;

  @ApiPropertyOptional({ type: Number, readOnly: true, description: READ_ONLY })
  @Allow()
  version?: unknown;

  @ApiPropertyOptional({ type: String, nullable: true, readOnly: true, description: READ_ONLY })
  @Allow()
  updatedAt?: unknown;

  @ApiPropertyOptional({ type: [KnownSource], readOnly: true, description: READ_ONLY })
  @Allow()
  knownSources?: unknown;
}

export class EvaluatePolicyDto {
  @ApiProperty({ example: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720' })
  @IsWalletAddress()
  walletAddress: string;

  @ApiPropertyOptional({
    type: CompliancePolicyDto,
    description:
      "A draft policy to evaluate instead of the account's (validated as a PUT body; not null).",
  })
  @NestedObject(() => CompliancePolicyDto, { optional: true })
  policy?: CompliancePolicyDto;

  @ApiPropertyOptional({
    type: DraftTradeDto,
    description:
      "A draft trade (a swap request's fields): which trade rule would refuse it, and each daily limit's use now (not null).",
  })
  @NestedObject(() => DraftTradeDto, { optional: true })
  trade?: DraftTradeDto;
}

export class CompliancePolicyResponse extends CompliancePolicyRulesDto {
  @ApiProperty({ enum: ['api_key', 'jwt'] }) authMethod: string;
  @ApiProperty({
    example: 3,
    description:
      'The policy version: 0 for the default policy (never set), 1 after the first PUT, one more after each PUT. compliance.policy_updated and evaluate name it.',
  })
  version: number;
  @ApiProperty({ nullable: true, type: String, description: 'null: the default policy.' })
  updatedAt: string | null;
  @ApiProperty({ type: [KnownSource], description: 'Sources a policy may name.' })
  knownSources: KnownSource[];
}

class SourceResultResponse {
  @ApiProperty({ example: 'verified-country' }) name: string;
  @ApiProperty({ enum: ['account', 'country', 'zk', 'demo'] }) kind: string;
  @ApiProperty() ok: boolean;
  @ApiProperty({
    example: 'ok',
    description:
      'ok, not_found, revoked, expired, other_attester, other_schema, other_recipient, not_verified; proof_required for a ZK issuer (a proof is presented to POST /verify, not read on chain).',
  })
  reason: string;
  @ApiPropertyOptional({ nullable: true, type: String, example: 'FR' }) country?: string | null;
}

export class PolicyEvaluationResponse {
  @ApiProperty({ enum: ['api_key', 'jwt'] }) authMethod: string;
  @ApiProperty() walletAddress: string;
  @ApiProperty({
    nullable: true,
    type: Number,
    example: 3,
    description:
      "The version of your account's policy that was evaluated (0: the default policy); null when a draft was.",
  })
  version: number | null;
  @ApiProperty() allowed: boolean;
  @ApiProperty({
    enum: POLICY_RULES,
    description: 'The rule that refused, or the sources rule that admitted.',
  })
  decidingRule: string;
  @ApiProperty({ nullable: true, type: String, description: 'The source the decision is about.' })
  source: string | null;
  @ApiProperty() message: string;
  @ApiProperty({ type: [SourceResultResponse] }) sources: SourceResultResponse[];
  @ApiPropertyOptional({
    type: TradeEvaluationResponse,
    description: 'Present when the body carried a trade: the trade rules on it.',
  })
  trade?: TradeEvaluationResponse;
}
