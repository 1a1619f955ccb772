import { accountsConfig } from './accounts.config';
import { approvalsConfig } from './approvals.config';
import { appConfig, appModeOf } from './app.config';
import { authConfig } from './auth.config';
import { chainConfig } from './chain.config';
import { complianceConfig } from './compliance.config';
import { databaseConfig } from './database.config';
import { collectConfigErrors, InvalidConfigError } from './env-reader';
import { httpConfig } from './http.config';
import { mailConfig } from './mail.config';
import { metricsConfig } from './metrics.config';
import { mfaConfig } from './mfa.config';
import { receiptsConfig } from './receipts.config';
import { tradingConfig } from './trading.config';
import { redisConfig } from './redis.config';
import { securityConfig } from './security.config';
import { usageConfig } from './usage.config';
import { webhooksConfig } from './webhooks.config';

/** Every config namespace; each validates its own variables when the app boots. */
export const CONFIG_NAMESPACES = [
  appConfig,
  httpConfig,
  databaseConfig,
  authConfig,
  redisConfig,
  usageConfig,
  complianceConfig,
  chainConfig,
  securityConfig,
  webhooksConfig,
  accountsConfig,
  mfaConfig,
  mailConfig,
  metricsConfig,
  receiptsConfig,
  tradingConfig,
  approvalsConfig,
];

/** Every problem of one start, one line per variable, in namespace order. */
export class InvalidConfigurationError extends Error {
  constructor(
    readonly problems: readonly InvalidConfigError[],
    production: boolean,
  ) {
    const lines =
      problems.length === 1
        ? [problems[0].message]
        : [
            `Invalid configuration, ${problems.length} settings to fix:`,
            ...problems.map((problem) => `  ${problem.problem}`),
          ];
    if (production) lines.push('Every production setting is described in .env.production.example');
    super(lines.join('\n'));
    this.name = 'InvalidConfigurationError';
  }
}

/**
 * Parses every namespace once, before any module starts: a bad variable fails the boot with its
 * name, and no connection or retry loop is left behind by a half-built application. Every problem
 * of every namespace is reported together (the first per variable: APP_MODE is read by several).
 * `checks` are a higher layer's readings of what a variable points at (the chain layer's network
 * file check), run after the namespaces and reported with them through `invalidConfig`.
 */
export function validateConfiguration(checks: ReadonlyArray<() => void> = []): void {
  const byVariable = new Map<string, InvalidConfigError>();
  for (const namespace of [...CONFIG_NAMESPACES, ...checks]) {
    for (const problem of collectConfigErrors(namespace)) {
      if (!byVariable.has(problem.variable)) byVariable.set(problem.variable, problem);
    }
  }
  if (byVariable.size === 0) return;
  throw new InvalidConfigurationError(
    [...byVariable.values()],
    !byVariable.has('APP_MODE') && appModeOf() === 'production',
  );
}
