import { HttpException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { ApiError } from './api-error';
import { ERROR_CATALOGUE, ErrorCode, ErrorPhase } from './error-catalogue';

/**
 * The body of every error response (spec §2.4). Beyond the spec's fields only two may stand at the
 * top level: `retryAfter` (integer seconds, on 429) and `errorId` (on 500, to quote to support).
 * Any other fact about an error is an entry of `details`.
 */
export interface ErrorEnvelope {
  error: string;
  code: ErrorCode;
  message: string;
  hint: string;
  phase: ErrorPhase;
  details?: unknown[];
  retryAfter?: number;
  errorId?: string;
}

const TOP_LEVEL_EXTRAS = ['retryAfter', 'errorId'] as const;

export interface RenderedError {
  status: number;
  body: ErrorEnvelope;
  headers: Record<string, string>;
  /** Set for unexpected failures: the id is in the body and the cause must be logged. */
  unexpected?: { errorId: string; cause: unknown };
}

export function statusText(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

export function renderApiError(err: ApiError): RenderedError {
  const entry = ERROR_CATALOGUE[err.code];
  const { topLevel, rest } = splitExtras(err.options.extra ?? {});
  const body: ErrorEnvelope = {
    error: statusText(entry.status),
    code: err.code,
    message: err.message,
    hint: err.hint,
    phase: err.phase,
    ...topLevel,
  };
  const details = [...(err.options.details ?? []), ...(Object.keys(rest).length ? [rest] : [])];
  if (err.options.details !== undefined || details.length > 0) body.details = details;
  return { status: entry.status, body, headers: err.options.headers ?? {} };
}

/** Extras other than the envelope's own top-level fields become one `details` entry. */
function splitExtras(extra: Record<string, unknown>): {
  topLevel: Pick<ErrorEnvelope, 'retryAfter' | 'errorId'>;
  rest: Record<string, unknown>;
} {
  const topLevel: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(extra)) {
    if ((TOP_LEVEL_EXTRAS as readonly string[]).includes(name)) topLevel[name] = value;
    else rest[name] = value;
  }
  return { topLevel, rest };
}

/** Nest/Express HTTP errors (unknown route, body-parser failures, ...) mapped onto our codes. */
const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'INVALID_PARAMS',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMIT_EXCEEDED',
  503: 'SERVICE_UNAVAILABLE',
};

const MESSAGE_BY_CODE: Partial<Record<ErrorCode, string>> = {
  NOT_FOUND: 'No such endpoint',
  PAYLOAD_TOO_LARGE: 'Request body is larger than 16 KiB',
  INVALID_PARAMS: 'The request could not be parsed',
};

const UNPARSED_REQUEST_HINT =
  'Send a JSON body with Content-Type: application/json that matches the schema in /docs.';

export function renderHttpStatus(status: number, message?: string): RenderedError | undefined {
  const code = CODE_BY_STATUS[status];
  if (!code) return undefined;
  // Without details, "fix the fields listed in details" would point at nothing.
  const hint = code === 'INVALID_PARAMS' ? UNPARSED_REQUEST_HINT : undefined;
  return renderApiError(
    new ApiError(code, message ?? MESSAGE_BY_CODE[code] ?? statusText(status), { hint }),
  );
}

/**
 * Connection-level database failures are a 503 (the client may retry), never a 500 with SQL text.
 * Covers node-postgres/TypeORM connection errors and SQLite busy/locked states.
 */
function isDatabaseUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; message?: unknown; name?: unknown; driverError?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE'].includes(code)
  )
    return true;
  if (
    [
      '57P01',
      '57P02',
      '57P03',
      '08000',
      '08001',
      '08003',
      '08006',
      'SQLITE_BUSY',
      'SQLITE_LOCKED',
    ].includes(code)
  )
    return true;
  const message = typeof e.message === 'string' ? e.message : '';
  if (
    /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end/i.test(
      message,
    )
  )
    return true;
  return (
    e.driverError !== undefined && e.driverError !== err && isDatabaseUnavailable(e.driverError)
  );
}

export function renderError(err: unknown): RenderedError {
  if (err instanceof ApiError) return renderApiError(err);
  if (err instanceof HttpException) {
    const rendered = renderHttpStatus(err.getStatus());
    if (rendered) return rendered;
  }
  const status = httpStatusOf(err);
  if (status !== undefined && status >= 400 && status < 500) {
    const rendered = renderHttpStatus(status);
    if (rendered) return rendered;
  }
  if (isDatabaseUnavailable(err)) {
    return renderApiError(new ApiError('SERVICE_UNAVAILABLE', 'The database is unavailable'));
  }
  const errorId = randomUUID();
  const rendered = renderApiError(
    new ApiError('INTERNAL_ERROR', 'An unexpected error occurred', { extra: { errorId } }),
  );
  return Object.assign({}, rendered, { unexpected: { errorId, cause: err } });
}

/** Errors raised by Express middleware (body-parser) carry their status on the error object. */
function httpStatusOf(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { status?: unknown; statusCode?: unknown };
  const status = typeof e.status === 'number' ? e.status : e.statusCode;
  return typeof status === 'number' ? status : undefined;
}
