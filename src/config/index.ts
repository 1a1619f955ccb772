import { appConfig } from './app.config';
import { authConfig } from './auth.config';
import { chainConfig } from './chain.config';
import { complianceConfig } from './compliance.config';
import { databaseConfig } from './database.config';
import { httpConfig } from './http.config';
import { redisConfig } from './redis.config';
import { usageConfig } from './usage.config';

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
];

/**
 * Parses every namespace once, before any module starts: a bad variable fails the boot with its
 * name, and no connection or retry loop is left behind by a half-built application.
 */
export function validateConfiguration(): void {
  for (const namespace of CONFIG_NAMESPACES) namespace();
}
