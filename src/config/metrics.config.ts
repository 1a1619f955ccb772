import { ConfigType, registerAs } from '@nestjs/config';
import { configToken } from './config-token';
import { envBool, envInt, envOptional, envString } from './env-reader';

/**
 * Prometheus metrics: their own listener, so the API's port never serves them by accident.
 * Off unless METRICS_PORT is set; loopback unless METRICS_HOST says otherwise.
 */
export const metricsConfig = registerAs('metrics', () => {
  const env = process.env;
  return {
    /** Unset: no listener (the metrics are still kept, nobody can scrape them). `0`: any free port. */
    port:
      envOptional(env, 'METRICS_PORT') === undefined
        ? undefined
        : envInt(env, 'METRICS_PORT', 0, { min: 0, max: 65_535 }),
    host: envString(env, 'METRICS_HOST', '127.0.0.1'),
    /**
     * GET /health/ready on the API's port answers only `{ status }` (and a `reason` when degraded)
     * unless this is true: its details (attester address and balance, RPC hosts, instance state)
     * are for operators, always served on the metrics listener's /health/ready.
     */
    healthDetails: envBool(env, 'HEALTH_DETAILS', false),
  };
});

export type MetricsConfig = ConfigType<typeof metricsConfig>;
/** The DI token of this namespace (see configToken). */
export const MetricsConfig = configToken(metricsConfig);
