import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsWalletAddress } from '../../../common/validation/is-evm-address';

const COUNTRY = /^[A-Za-z]{2}$/;

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
      'ISO 3166-1 alpha-2: only wallets attested in one of these (a country source, e.g. Verified Country) are allowed.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(300)
  @Matches(COUNTRY, { each: true, message: 'each country must be an ISO 3166-1 alpha-2 code' })
  allow?: string[];

  @ApiPropertyOptional({
    type: [String],
    example: ['XX'],
    description: 'ISO 3166-1 alpha-2: wallets attested in one of these are refused.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(300)
  @Matches(COUNTRY, { each: true, message: 'each country must be an ISO 3166-1 alpha-2 code' })
  deny?: string[];
}

export class CompliancePolicyDto {
  @ApiProperty({ type: PolicySourcesDto })
  @ValidateNested()
  @Type(() => PolicySourcesDto)
  sources: PolicySourcesDto;

  @ApiProperty({ type: PolicyCountriesDto })
  @ValidateNested()
  @Type(() => PolicyCountriesDto)
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
}

export class EvaluatePolicyDto {
  @ApiProperty({ example: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720' })
  @IsWalletAddress()
  walletAddress: string;

  @ApiPropertyOptional({
    type: CompliancePolicyDto,
    description: "A draft policy to evaluate instead of the account's.",
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => CompliancePolicyDto)
  policy?: CompliancePolicyDto;
}

class KnownSource {
  @ApiProperty({ example: 'verified-account' }) name: string;
  @ApiProperty({ enum: ['account', 'country', 'zk', 'demo'] }) kind: string;
}

export class CompliancePolicyResponse extends CompliancePolicyDto {
  @ApiProperty({ enum: ['api_key', 'jwt'] }) authMethod: string;
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
  @ApiProperty() allowed: boolean;
  @ApiProperty({
    enum: ['sources.any', 'sources.all', 'countries.deny', 'countries.allow', 'minSessionSeconds'],
    description: 'The rule that refused, or the sources rule that admitted.',
  })
  decidingRule: string;
  @ApiProperty({ nullable: true, type: String, description: 'The source the decision is about.' })
  source: string | null;
  @ApiProperty() message: string;
  @ApiProperty({ type: [SourceResultResponse] }) sources: SourceResultResponse[];
}
