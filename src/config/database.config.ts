import { ConfigType, registerAs } from '@nestjs/config';
import { join, resolve } from 'node:path';
import { envOptional, envString, envUrl, invalidConfig } from './env-reader';

export const databaseConfig = registerAs('database', () => {
  const env = process.env;
  const url = envUrl(env, 'DATABASE_URL', ['postgres', 'postgresql']);
  const given = envOptional(env, 'DATABASE_SCHEMA');
  const schema =
    given === undefined || /^[a-z_][a-z0-9_]{0,62}$/.test(given)
      ? given
      : invalidConfig('DATABASE_SCHEMA', 'must be a lower-case SQL identifier', given, undefined);
  const dataDir = resolve(envString(env, 'DATA_DIR', './data'));
  return url
    ? { type: 'postgres' as const, url, schema }
    : { type: 'sqlite' as const, path: envString(env, 'SQLITE_PATH', join(dataDir, 'app.sqlite')) };
});

export type DatabaseConfig = ConfigType<typeof databaseConfig>;
