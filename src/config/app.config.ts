import { ConfigType, registerAs } from '@nestjs/config';
import { configToken } from './config-token';
import { resolve } from 'node:path';
import { envBool, envEnum, envInt, envString } from './env-reader';

export const APP_MODES = ['demo', 'production'] as const;
export type AppMode = (typeof APP_MODES)[number];

/** The one parser of APP_MODE; every namespace that depends on the mode reads it through here. */
export function appModeOf(env: Record<string, string | undefined> = process.env): AppMode {
  return envEnum(env, 'APP_MODE', APP_MODES, 'demo');
}

export const appConfig = registerAs('app', () => {
  const env = process.env;
  const mode = appModeOf(env);
  return {
    port: envInt(env, 'PORT', 3000, { min: 0, max: 65535 }),
    host: envString(env, 'HOST', '0.0.0.0'),
    mode,
    dataDir: resolve(envString(env, 'DATA_DIR', './data')),
    /** Spec §8 leaves request size open; 16 KiB is ample for every body we accept. */
    bodyLimitBytes: 16 * 1024,
    logLevel: envEnum(
      env,
      'LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      'info',
    ),
    /**
     * `pretty` (colourised lines for a person) or `json` (one object per line, for collectors).
     * Unset: pretty when stdout is a terminal, json otherwise.
     */
    logFormat: envEnum(
      env,
      'LOG_FORMAT',
      ['pretty', 'json'],
      process.stdout.isTTY ? 'pretty' : 'json',
    ),
    /**
     * The old generation may grow this many percent past the live heap before V8 collects it in
     * full (`--heap-growing-percent`); 0 leaves V8's own factor, up to 300 %. See bootstrap/heap.ts.
     */
    heapGrowingPercent: envInt(env, 'HEAP_GROWING_PERCENT', 40, { min: 0, max: 400 }),
    /** Seed and print a demo account on the embedded default (never in production). */
    seedDemoAccount: envBool(env, 'SEED_DEMO_ACCOUNT', mode === 'demo'),
    /** How long shutdown waits for in-flight requests before closing anyway. */
    shutdownGraceMs: envInt(env, 'SHUTDOWN_GRACE_MS', 10_000, { min: 0, max: 120_000 }),
    /**
     * After SIGTERM, readiness answers 503 for this long while the server still accepts, so a load
     * balancer stops routing here before connections are refused (0: close at once).
     */
    shutdownReadinessDelayMs: envInt(env, 'SHUTDOWN_READINESS_DELAY_MS', 0, {
      min: 0,
      max: 60_000,
    }),
  };
});

export type AppConfig = ConfigType<typeof appConfig>;
/** The DI token of this namespace (see configToken). */
export const AppConfig = configToken(appConfig);
