import { ConfigType, registerAs } from '@nestjs/config';
import { configToken } from './config-token';
import { envInt } from './env-reader';

/** Four eyes (issue 55): how often open approval requests past their time are ended. */
export const approvalsConfig = registerAs('approvals', () => {
  const env = process.env;
  return {
    /**
     * How often each instance ends the approval requests past their expiry (approval.expired, once
     * whichever instance sees it first); 0 = off (a build naming one still answers APPROVAL_EXPIRED).
     */
    sweepIntervalMs: envInt(env, 'APPROVALS_SWEEP_INTERVAL_MS', 15_000, {
      min: 0,
      max: 3_600_000,
    }),
  };
});

export type ApprovalsConfig = ConfigType<typeof approvalsConfig>;
/** The DI token of this namespace (see configToken). */
export const ApprovalsConfig = configToken(approvalsConfig);
