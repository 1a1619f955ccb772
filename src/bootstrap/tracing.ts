import { trace } from '@opentelemetry/api';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { setTraceIdSource } from '../common/logging/request-context';

/**
 * The OpenTelemetry Node SDK with the instrumentations of what a request goes through: the HTTP
 * server (W3C traceparent in, by the SDK's default propagator), Express' routing, PostgreSQL
 * (pg, under TypeORM), Redis (ioredis) and the chain's JSON-RPC calls (undici). The exporter is
 * the SDK's, from OTEL_TRACES_EXPORTER / OTEL_EXPORTER_OTLP_*; metrics and logs are not exported
 * through it (Prometheus scrapes /metrics, logs go to stdout) unless their OTEL_* variable says so.
 * Started by tracing-preload.ts before any instrumented module is loaded.
 */
export function startTracing(env: NodeJS.ProcessEnv = process.env): () => Promise<void> {
  env.OTEL_METRICS_EXPORTER ??= 'none';
  env.OTEL_LOGS_EXPORTER ??= 'none';
  env.OTEL_SERVICE_NAME ??= 'compliance-defi-builder';
  // The background timers (the attester's balance, the chain head, screening, webhook deliveries,
  // retention) run outside any request: their database, Redis and RPC calls would each start a
  // trace of their own (about 10 a second with no traffic, issue 58). Only spans with a parent
  // (a request's) are made, unless TRACING_BACKGROUND=true asks for them too.
  const background = /^(1|true|yes)$/i.test(env.TRACING_BACKGROUND?.trim() ?? '');
  const sdk = new NodeSDK({
    instrumentations: [
      // Health checks every 2 s per balancer, and Prometheus' scrapes, are not worth a trace each.
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => /^\/(health\/|metrics\b)/.test(req.url ?? ''),
        requireParentforOutgoingSpans: !background,
      }),
      new ExpressInstrumentation(),
      new PgInstrumentation({ requireParentSpan: !background }),
      new IORedisInstrumentation({ requireParentSpan: !background }),
      new UndiciInstrumentation({ requireParentforSpans: !background }),
    ],
  });
  sdk.start();
  // Every log line written inside a span names its trace (pino's mixin).
  setTraceIdSource(() => trace.getActiveSpan()?.spanContext().traceId);
  return () => sdk.shutdown();
}
