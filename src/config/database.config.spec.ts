import { databaseConfig } from './database.config';
import { withOnlyEnv } from '../../test/helpers/test-env';

describe('databaseConfig', () => {
  it('DATABASE_MIGRATIONS: auto by default, on SQLite and PostgreSQL alike', () => {
    expect(withOnlyEnv({ DATA_DIR: '/tmp/cgk' }, () => databaseConfig()).migrations).toBe('auto');
    const pg = withOnlyEnv(
      { DATABASE_URL: 'postgres://u@db.example.com/cgk', DATABASE_MIGRATIONS: 'off' },
      () => databaseConfig(),
    );
    expect(pg).toMatchObject({ type: 'postgres', migrations: 'off' });
  });

  it('refuses another DATABASE_MIGRATIONS value, naming the allowed ones', () => {
    expect(() => withOnlyEnv({ DATABASE_MIGRATIONS: 'once' }, () => databaseConfig())).toThrow(
      /DATABASE_MIGRATIONS must be one of auto, off/,
    );
  });
});
