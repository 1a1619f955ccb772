import { ConfigType, registerAs } from '@nestjs/config';
import { configToken } from './config-token';
import { join, resolve } from 'node:path';
import { envEnum, envOptional, envString, envUrl, invalidConfig } from './env-reader';

export const DATABASE_MIGRATIONS_MODES = ['auto', 'off'] as const;

export const databaseConfig = registerAs('database', () => {
  const env = process.env;
  const url = envUrl(env, 'DATABASE_URL', ['postgres', 'postgresql']);
  const given = envOptional(env, 'DATABASE_SCHEMA');
  const schema =
    given === undefined || /^[a-z_][a-z0-9_]{0,62}$/.test(given)
      ? given
      : invalidConfig('DATABASE_SCHEMA', 'must be a lower-case SQL identifier', given, undefined);
  const dataDir = resolve(envString(env, 'DATA_DIR', './data'));
  /**
   * `auto`: a starting instance runs the pending migrations (once across replicas: an advisory
   * lock on PostgreSQL). `off`: it runs none and refuses to start while any is pending; the
   * operator runs `npm run migrate` first.
   */
  const migrations = envEnum(env, 'DATABASE_MIGRATIONS', DATABASE_MIGRATIONS_MODES, 'auto');
  return url
    ? { type: 'postgres' as const, url, schema, migrations }
    : {
        type: 'sqlite' as const,
        path: envString(env, 'SQLITE_PATH', join(dataDir, 'app.sqlite')),
        migrations,
      };
});

export type DatabaseConfig = ConfigType<typeof databaseConfig>;
/** The DI token of this namespace (see configToken). */
export const DatabaseConfig = configToken(databaseConfig);
