import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { ApiRequestExample } from '../../../common/openapi/api-request-example.decorator';
import { IsIsoDateTime } from '../../../common/validation/is-iso-date-time';

import { Scope, SCOPES } from '../../scopes';
import { IsLabel, IsSetOf } from '../../../common/validation/composed-validators';

// The example leaves expiresAt out: a fixed date would fall out of the accepted window one day.
@ApiRequestExample({ name: 'CI pipeline', scopes: ['defi:swap', 'usage:read'] })
export class CreateApiKeyDto {
  @ApiProperty({
    description:
      'A label to recognise the key by. Control characters (NUL, line breaks, tabs), bidirectional overrides and zero-width or other invisible format characters are refused.',
    example: 'CI pipeline',
    minLength: 1,
    maxLength: 100,
  })
  @IsLabel(100)
  name: string;

  @ApiProperty({
    description: 'Permissions of the key',
    enum: SCOPES,
    isArray: true,
    example: ['defi:swap', 'usage:read'],
  })
  @IsSetOf(SCOPES)
  scopes: Scope[];

  @ApiPropertyOptional({
    description:
      'Expiry: an ISO 8601 string, a date-time with an offset (2027-01-01T00:00:00Z) or a date (midnight UTC); numbers are refused. ' +
      'It must be in the future and at most the deployment’s key lifetime from now (730 days unless configured otherwise). ' +
      'Omitted: the key never expires.',
    type: String,
    format: 'date-time',
    example: '2027-01-01T00:00:00Z',
  })
  @IsOptional()
  @IsIsoDateTime({ future: true })
  expiresAt?: Date;
}
