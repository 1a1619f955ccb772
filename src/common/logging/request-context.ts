import { AsyncLocalStorage } from 'node:async_hooks';

interface RequestContext {
  requestId: string;
}

/**
 * The request a line is logged for, so that app lines ("API key created") carry its id as the
 * request log line does. On Node 24 AsyncLocalStorage rides on AsyncContextFrame, not on the
 * promise hooks nestjs-pino's middleware turned on under Node 20 (docs/architecture.md, "Why
 * hand-written"); `npm run bench:tracing` measures a request with it.
 */
const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `next` (the rest of the request's pipeline) inside the request's scope. */
export function runInRequestScope(requestId: string, next: () => void): void {
  storage.run({ requestId }, next);
}

/** Where the active trace id comes from, once tracing is on (never loaded otherwise). */
let traceIdSource: (() => string | undefined) | undefined;

export function setTraceIdSource(source: () => string | undefined): void {
  traceIdSource = source;
}

/** pino's mixin: the fields every line gets (request id, trace id) when it is logged in a scope. */
export function logContextFields(): Record<string, string> {
  const requestId = storage.getStore()?.requestId;
  const traceId = traceIdSource?.();
  if (requestId === undefined && traceId === undefined) return {};
  if (traceId === undefined) return { requestId: requestId! };
  return requestId === undefined ? { traceId } : { requestId, traceId };
}
