import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ERROR_CATALOGUE, ErrorCode, ErrorPhase } from '../errors/error-catalogue';
import { ErrorEnvelopeSchema } from './error-envelope.schema';
import type { NamedCode } from './error-examples';

/**
 * Documents the error codes an operation can return: one response per status (taken from the
 * catalogue), each an ErrorEnvelope whose description lists its codes, their phase and default
 * hint. The finished document (openapi-document.ts) gives each code of a status its own named
 * example, so /docs shows a 412 as a SESSION_NOT_ACTIVE, not as the schema's generic sample.
 *
 *   @ApiErrors('INVALID_PARAMS', 'INVALID_CREDENTIALS', 'RATE_LIMIT_EXCEEDED')
 *   @ApiErrors(...JSON_BODY_ERRORS, ...inPhase('broadcast', 'SESSION_NOT_ACTIVE'))
 */
export function ApiErrors(
  ...codes: Array<ErrorCode | NamedCode>
): MethodDecorator & ClassDecorator {
  const byStatus = new Map<number, NamedCode[]>();
  for (const entry of codes) {
    const named = typeof entry === 'string' ? { code: entry, phase: phaseOf(entry) } : entry;
    const status = ERROR_CATALOGUE[named.code].status;
    if (status < 400) continue; // warnings (200) are documented with the success response
    byStatus.set(status, [...(byStatus.get(status) ?? []), named]);
  }
  return applyDecorators(
    ...[...byStatus].map(([status, statusCodes]) =>
      ApiResponse({
        status,
        type: ErrorEnvelopeSchema,
        description: statusCodes
          .map(({ code, phase }) => `\`${code}\` (${phase}): ${ERROR_CATALOGUE[code].hint}`)
          .join('\n\n'),
      }),
    ),
  );
}

/**
 * Codes an operation answers in another phase than the catalogue's (design §8: the phase says
 * where a failure happened, e.g. SESSION_NOT_ACTIVE refused by the relay's simulation).
 */
export function inPhase(phase: ErrorPhase, ...codes: ErrorCode[]): NamedCode[] {
  return codes.map((code) => ({ code, phase }));
}

function phaseOf(code: ErrorCode): ErrorPhase {
  return ERROR_CATALOGUE[code].phase;
}

/** What any endpoint taking a JSON body can answer before it looks at the fields' meaning. */
export const JSON_BODY_ERRORS: ErrorCode[] = [
  'INVALID_PARAMS',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
];
