import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { catchError, concatMap, from, Observable, of, throwError } from 'rxjs';
import { ApiError } from '../../common/errors/api-error';
import { routeSuccessStatus } from '../../common/validation/route-params';
import { Principal, principalOf } from '../principal';
import { IdempotencyScope, IdempotencyService } from './idempotency.service';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** How long a duplicate waits for the first request with its key to finish (poll, not sleep). */
const RUNNING_WAIT_MS = 30_000;
const RUNNING_POLL_MS = 100;

/**
 * Idempotency-Key (IETF draft-ietf-httpapi-idempotency-key-header): the first request with a key
 * runs and its successful response is stored for 24 h; a replay with the same key and the same
 * request gets that response (same status and body, header Idempotent-Replayed: true); the same key
 * with another request gets 422 IDEMPOTENCY_KEY_REUSED. Keys are per caller: a user, or an API key,
of an account (a response is never replayed to anyone but who made the request). Runs after the
 * guards, so the request is validated and authenticated before anything is stored.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly records: IdempotencyService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    const key = req.headers[IDEMPOTENCY_HEADER];
    const principal = principalOf(req);
    if (key === undefined || !principal) return next.handle();
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) throw invalidKey();
    const res = context.switchToHttp().getResponse<Response>();
    const status = routeSuccessStatus(context.getHandler(), req.method);
    const hash = requestHash(context, req);
    return from(this.claim(idempotencyScope(principal), key, hash)).pipe(
      concatMap((claim) => {
        if (claim.outcome === 'replay') {
          res.setHeader('Idempotent-Replayed', 'true');
          res.status(claim.status);
          return of(claim.body);
        }
        return next.handle().pipe(
          concatMap((body) => from(this.records.complete(claim.id, status, body).then(() => body))),
          catchError((error: unknown) =>
            from(this.records.release(claim.id)).pipe(concatMap(() => throwError(() => error))),
          ),
        );
      }),
    );
  }

  private async claim(scope: IdempotencyScope, key: string, hash: string) {
    const deadline = Date.now() + RUNNING_WAIT_MS;
    for (;;) {
      const claim = await this.records.claim(scope, key, hash);
      if (claim.outcome === 'mismatch') throw reused('was used with a different request');
      if (claim.outcome !== 'running') return claim;
      if (Date.now() >= deadline) throw reused('names a request that is still running');
      await new Promise((resolve) => setTimeout(resolve, RUNNING_POLL_MS));
    }
  }
}

/** The caller a record belongs to: the dashboard user, or the API key (its scopes are its own). */
export function idempotencyScope(principal: Principal): IdempotencyScope {
  const caller =
    principal.method === 'api_key' ? `key:${principal.apiKeyId}` : `user:${principal.userId}`;
  return { accountId: principal.accountId, caller };
}

/** The operation (controller + handler, so both path forms are one) and the canonical body. */
function requestHash(context: ExecutionContext, req: Request): string {
  return createHash('sha256')
    .update(`${context.getClass().name}.${context.getHandler().name}\n`)
    .update(JSON.stringify(req.body ?? null))
    .digest('hex');
}

function invalidKey(): ApiError {
  const message = 'Idempotency-Key must be 1-255 visible ASCII characters (e.g. a UUID)';
  return new ApiError('INVALID_PARAMS', message, {
    details: [{ field: 'Idempotency-Key', constraint: 'idempotencyKey', message }],
  });
}

function reused(what: string): ApiError {
  return new ApiError('IDEMPOTENCY_KEY_REUSED', `This Idempotency-Key ${what}`);
}
