import { ConfigType, registerAs } from '@nestjs/config';
import { configToken } from './config-token';
import { envInt } from './env-reader';

/** Usage retention (issue 15): how long raw rows and roll-ups are kept, and the pruning sweep. */
export const usageConfig = registerAs('usage', () => {
  const env = process.env;
  return {
    /** Raw usage rows (one per request); stats do not need them, they serve audits. */
    rawRetentionDays: envInt(env, 'USAGE_RAW_RETENTION_DAYS', 7, { min: 1, max: 3_650 }),
    /** Minute and hour roll-ups, which stats read. */
    rollupRetentionDays: envInt(env, 'USAGE_ROLLUP_RETENTION_DAYS', 400, { min: 1, max: 3_650 }),
    /** How often the retention sweep runs (usage, refresh tokens, login sessions, SIWE nonces). */
    pruneIntervalMs: envInt(env, 'RETENTION_INTERVAL_MS', 3_600_000, {
      min: 1_000,
      max: 86_400_000,
    }),
    /** Rows per DELETE statement: short statements, short locks. */
    pruneBatchSize: envInt(env, 'RETENTION_BATCH_SIZE', 1_000, { min: 1, max: 10_000 }),
  };
});

export type UsageConfig = ConfigType<typeof usageConfig>;
/** The DI token of this namespace (see configToken). */
export const UsageConfig = configToken(usageConfig);
