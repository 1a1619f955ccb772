import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ERROR_CATALOGUE } from '../errors/error-catalogue';

const CODES = Object.keys(ERROR_CATALOGUE);
const PHASES = ['validation', 'auth', 'preflight', 'build', 'broadcast'];

/** The OpenAPI shape of the one error body (spec §2.4; rendered by error-envelope.ts). */
@ApiSchema({
  name: 'ErrorEnvelope',
  description:
    'Every error response. Branch on `code` (never on status or message) and show `hint` to developers.',
})
export class ErrorEnvelopeSchema {
  @ApiProperty({ description: 'HTTP status text', example: 'Bad Request' })
  error: string;

  @ApiProperty({
    description: 'Machine-readable code (the error catalogue)',
    enum: CODES,
    enumName: 'ErrorCode',
    example: 'INVALID_PARAMS',
  })
  code: string;

  @ApiProperty({ example: 'Request validation failed: amount' })
  message: string;

  @ApiProperty({
    description: 'Actionable next step, for display to developers',
    example:
      'Fix the fields listed in details and send the request again; see /docs for the schema.',
  })
  hint: string;

  @ApiProperty({
    description: 'Pipeline stage that refused the request',
    enum: PHASES,
    enumName: 'ErrorPhase',
    example: 'validation',
  })
  phase: string;

  @ApiPropertyOptional({
    description:
      'Further facts, one object per entry: field errors `{field, constraint, message, suggestion?}` for INVALID_PARAMS / INVALID_ADDRESS, or facts such as `{rule}`, `{field, deprecated, replacedBy}`, `{activeUntil}`, `{requiredScope, keyScopes}`.',
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    example: [
      { field: 'amount', constraint: 'matches', message: 'amount must be a decimal integer' },
    ],
  })
  details?: Record<string, unknown>[];

  @ApiPropertyOptional({
    description: 'On 429 only: seconds to wait before retrying (also in the Retry-After header)',
    type: 'integer',
    minimum: 1,
    example: 12,
  })
  retryAfter?: number;

  @ApiPropertyOptional({
    description: 'On 500 only: quote this id to support; the cause is logged under it',
    format: 'uuid',
  })
  errorId?: string;
}
