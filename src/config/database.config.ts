import { ConfigType, registerAs } from '@nestjs/config';
import { join, resolve } from 'node:path';
import { envOptional, envString, envUrl, InvalidConfigError } from './env-reader';

export const databaseConfig = registerAs('database', () => {
  const env = process.env;
  const url = envUrl(env, 'DATABASE_URL', ['postgres', 'postgresql']);
  const schema = envOptional(env, 'DATABASE_SCHEMA');
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new InvalidConfigError('DATABASE_SCHEMA', 'must be a lower-case SQL identifier', schema);
  }
  const dataDir = resolve(envString(env, 'DATA_DIR', './data'));
  return url
    ? { type: 'postgres' as const, url, schema }
    : { type: 'sqlite' as const, path: envString(env, 'SQLITE_PATH', join(dataDir, 'app.sqlite')) };
});

export type DatabaseConfig = ConfigType<typeof databaseConfig>;
