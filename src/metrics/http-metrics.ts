import type { NextFunction, Request, Response } from 'express';
import { whenResponseEnds } from '../common/http/when-response-ends';
import type { Metrics } from './metrics.service';

/**
 * The route label is the matched pattern (`/api/v1/defi/preflight/:wallet`), never the raw path:
 * one series per route, whatever the callers put in it. Unrouted requests share one label.
 */
export function routeOf(req: Request): string {
  const pattern = (req.route as { path?: unknown } | undefined)?.path;
  return typeof pattern === 'string' ? `${req.baseUrl}${pattern}` : 'unmatched';
}

/**
 * Counts and times every request when its response ends (the one end-of-response hook the request
 * log and the in-flight count share). `authMethodOf` is the auth layer's reading of the request,
 * passed in because metrics sit below auth.
 */
export function httpMetricsMiddleware(
  metrics: Metrics,
  authMethodOf: (req: Request) => string | undefined,
) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    whenResponseEnds(res, () => {
      const route = routeOf(req);
      const status = res.writableFinished ? String(res.statusCode) : 'aborted';
      metrics.httpRequests.inc({
        route,
        method: req.method,
        status,
        auth_method: authMethodOf(req) ?? 'none',
      });
      metrics.httpDuration.observe(
        { route, method: req.method, status },
        Number(process.hrtime.bigint() - started) / 1e9,
      );
    });
    next();
  };
}
