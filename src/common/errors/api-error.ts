import { ERROR_CATALOGUE, ErrorCode, ErrorPhase } from './error-catalogue';

export interface ApiErrorOptions {
  hint?: string;
  /**
   * Where the failure happened, when not the code's usual phase (design §8): SESSION_NOT_ACTIVE
   * is preflight for a build and broadcast for a relayed transaction.
   */
  phase?: ErrorPhase;
  details?: unknown[];
  /**
   * Extra facts about the error; never secrets. `retryAfter` and `errorId` are rendered at the top
   * level of the envelope, anything else (field, rule, activeUntil, ...) as one `details` entry.
   */
  extra?: Record<string, unknown>;
  /** Response headers to set with the error (e.g. Retry-After). */
  headers?: Record<string, string>;
  cause?: unknown;
}

/** The only error type feature code throws; the envelope filter renders it. */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: ApiErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ApiError';
    this.status = ERROR_CATALOGUE[code].status;
  }

  get phase(): ErrorPhase {
    return this.options.phase ?? ERROR_CATALOGUE[this.code].phase;
  }

  get hint(): string {
    return this.options.hint ?? ERROR_CATALOGUE[this.code].hint;
  }
}
