import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ERROR_CATALOGUE, ErrorCode } from '../errors/error-catalogue';
import { ErrorEnvelopeSchema } from './error-envelope.schema';

/**
 * Documents the error codes an operation can return: one response per status (taken from the
 * catalogue), each an ErrorEnvelope whose description lists its codes and their default hints.
 *
 *   @ApiErrors('INVALID_PARAMS', 'INVALID_CREDENTIALS', 'RATE_LIMIT_EXCEEDED')
 */
export function ApiErrors(...codes: ErrorCode[]): MethodDecorator & ClassDecorator {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CATALOGUE[code].status;
    if (status < 400) continue; // warnings (200) are documented with the success response
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return applyDecorators(
    ...[...byStatus].map(([status, statusCodes]) =>
      ApiResponse({
        status,
        type: ErrorEnvelopeSchema,
        description: statusCodes
          .map(
            (code) => `\`${code}\` (${ERROR_CATALOGUE[code].phase}): ${ERROR_CATALOGUE[code].hint}`,
          )
          .join('\n\n'),
      }),
    ),
  );
}

/** What any endpoint taking a JSON body can answer before it looks at the fields' meaning. */
export const JSON_BODY_ERRORS: ErrorCode[] = [
  'INVALID_PARAMS',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
];
