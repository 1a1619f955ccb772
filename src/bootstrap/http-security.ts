import { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import {
  CORS_ALLOWED_HEADERS,
  CORS_EXPOSED_HEADERS,
  CORS_METHODS,
  HttpConfig,
} from '../config/http.config';

export const DOCS_PATH = 'docs';

/**
 * CORS for dashboards on other origins: only the exact origins of CORS_ORIGINS, no credentials
 * mode (keys and tokens travel in headers; the one cookie, the dashboard's refresh token, is for
 * its own origin: src/auth/login/refresh-cookie.ts). Any other origin gets no CORS header at
 * all, so the browser refuses to share the response. Registered first: a preflight is answered
 * before validation and authentication, which it never carries.
 */
export function useCors(app: INestApplication, config: HttpConfig): void {
  if (config.corsOrigins.length === 0) return;
  const allowed = new Set(config.corsOrigins);
  app.enableCors({
    origin: (origin: string | undefined, callback: (err: Error | null, allow?: boolean) => void) =>
      callback(null, origin !== undefined && allowed.has(origin)),
    methods: CORS_METHODS,
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    credentials: false,
    maxAge: 600,
  });
}

/**
 * Helmet's defaults everywhere, except that /docs drops `upgrade-insecure-requests`: behind plain
 * HTTP on any host but localhost that directive makes the browser fetch the Swagger UI assets over
 * HTTPS, which fails and leaves a blank page. The JSON API keeps the full policy.
 */
export function useSecurityHeaders(app: INestApplication): void {
  const api = helmet();
  const docs = helmet({
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
  });
  const docsPrefix = `/${DOCS_PATH}`;
  app.use((req: Request, res: Response, next: NextFunction) => {
    const isDocs = req.path === docsPrefix || req.path.startsWith(`${docsPrefix}/`);
    (isDocs ? docs : api)(req, res, next);
  });
}
