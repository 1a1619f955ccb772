import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { requestIdFor } from './logging.module';
import { runInRequestScope } from './request-context';
import { whenResponseEnds } from '../http/when-response-ends';

/**
 * One log line per request, when its response finishes (or the client goes away first): the
 * request id (the caller's sane X-Request-Id or a new one, echoed on the response), method,
 * scrubbed URL, status and response time in ms, and for an error its envelope's `code` (what an
 * operator greps for); info below 400, warn below 500, error above, except the 503s of a drain
 * (info: a load balancer's readiness checks after SIGTERM must not page).
 * The fields pino-http wrote, for one log call on the root logger and no child logger.
 */
export function requestLogMiddleware(root: Logger, isDraining: () => boolean = () => false) {
  const logger = requestLogger(root);
  return (req: Request, res: Response, next: NextFunction): void => {
    const id = requestIdFor(req, res);
    (req as Request & { id: string }).id = id;
    const started = Date.now();
    whenResponseEnds(res, () => {
      const responseTime = Date.now() - started;
      // sendError leaves the envelope's code here. No spread: this runs once per request.
      const code = res.locals.errorCode as string | undefined;
      const fields =
        code === undefined ? { req, res, responseTime } : { req, res, responseTime, code };
      if (!res.writableFinished) logger.warn(fields, 'request aborted');
      // A draining instance answers 503 on purpose (readiness first of all): expected, not paged.
      else if (res.statusCode === 503 && isDraining())
        logger.info(fields, 'request refused: draining');
      else if (res.statusCode >= 500) logger.error(fields, 'request errored');
      else if (res.statusCode >= 400) logger.warn(fields, 'request completed');
      else logger.info(fields, 'request completed');
    });
    // App lines logged while handling it carry `requestId` (pino's mixin reads the scope).
    runInRequestScope(id, next);
  };
}

/**
 * The root logger without its redaction, for the request line alone: that line's fields are fixed
 * (id, method, url with secrets masked by scrubSecrets, status, time, code; the serializers keep
 * no header), so the redaction paths never match anything in it, and walking them cost more than
 * the rest of the line (request-log.spec.ts holds both loggers to the same line).
 */
export function requestLogger(root: Logger): Logger {
  return root.child({}, { redact: [] });
}
