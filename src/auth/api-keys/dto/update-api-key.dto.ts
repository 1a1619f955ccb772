import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { ApiRequestExample } from '../../../common/openapi/api-request-example.decorator';
import { IsIsoDateTime } from '../../../common/validation/is-iso-date-time';

import { Scope, SCOPES } from '../../scopes';
import { IsLabel, IsSetOf } from '../../../common/validation/composed-validators';

/** Every field optional; what is sent replaces the key's value (the secret never changes). */
@ApiRequestExample({ name: 'CI pipeline (read only)', scopes: ['usage:read'] })
export class UpdateApiKeyDto {
  @ApiPropertyOptional({
    description: 'A new label (the same rules as at creation).',
    example: 'CI pipeline (read only)',
    minLength: 1,
    maxLength: 100,
  })
  @IsOptional()
  @IsLabel(100)
  name?: string;

  @ApiPropertyOptional({
    description:
      'The full new set of scopes (replaces the old set). A developer may give every scope but `audit:read`, and edits only keys without it.',
    enum: SCOPES,
    isArray: true,
    example: ['usage:read'],
  })
  @IsOptional()
  @IsSetOf(SCOPES)
  scopes?: Scope[];

  @ApiPropertyOptional({
    description:
      'A new expiry (ISO 8601, in the future, within the deployment’s key lifetime), or null: the key never expires.',
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2027-01-01T00:00:00Z',
  })
  @IsOptional()
  @IsIsoDateTime({ future: true })
  expiresAt?: Date | null;
}
