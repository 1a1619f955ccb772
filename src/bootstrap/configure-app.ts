import { INestApplication } from '@nestjs/common';
import express from 'express';
import type { Server } from 'node:http';
import { Logger } from 'nestjs-pino';
import type { Logger as PinoLogger } from 'pino';
import { ROOT_LOGGER } from '../common/logging/logging.module';
import { requestLogMiddleware } from '../common/logging/request-log';
import { httpConfig, HttpConfig } from '../config/http.config';
import { setUpOpenApi } from '../common/openapi/openapi-setup';
import { GracefulShutdownService } from '../lifecycle/graceful-shutdown.service';
import { InFlightRequests } from '../lifecycle/in-flight-requests';
import { principalOf } from '../auth/principal';
import { metricsConfig, MetricsConfig } from '../config/metrics.config';
import { httpMetricsMiddleware } from '../metrics/http-metrics';
import { Metrics } from '../metrics/metrics.service';
import { useJsonBodies } from './body-parsing';
import { limitRequestReceipt } from './http-adapter';
import { DOCS_PATH, useCors, useSecurityHeaders } from './http-security';

export { BODY_LIMIT_BYTES } from './body-parsing';

/**
 * Everything main.ts applies to the app, shared with the e2e suites so that they test the real
 * request pipeline. The app must be created with `{ bodyParser: false, bufferLogs: true }`.
 */
export function configureApp(app: INestApplication): void {
  app.useLogger(app.get(Logger));
  const http = app.getHttpAdapter().getInstance() as express.Express;
  http.disable('x-powered-by');
  http.set('query parser', 'simple');
  // No ETag on API answers: they are per-caller and mostly no-store, nobody revalidates them, and
  // computing one hashed every body and made Express write headers and body in two chunks
  // (docs/architecture.md, "Why hand-written"). The dashboard's files keep theirs (express.static sets its own).
  http.set('etag', false);
  const config = app.get<HttpConfig>(httpConfig.KEY);
  limitRequestReceipt(app.getHttpServer() as Server, config.requestTimeouts);
  // req.ip (throttling of failed authentications, logs) is the client's, not the load balancer's.
  http.set('trust proxy', config.trustProxy);
  app.use(app.get(InFlightRequests).middleware);
  // Counted only when someone can scrape them: no per-request cost with METRICS_PORT unset.
  if (app.get<MetricsConfig>(metricsConfig.KEY).port !== undefined)
    app.use(httpMetricsMiddleware(app.get(Metrics), (req) => principalOf(req)?.method));
  const shutdown = app.get(GracefulShutdownService);
  app.use(requestLogMiddleware(app.get<PinoLogger>(ROOT_LOGGER), () => shutdown.isDraining));
  useCors(app, config);
  useSecurityHeaders(app);
  useJsonBodies(app);
  if (config.docsEnabled) setUpOpenApi(app, DOCS_PATH);
}
