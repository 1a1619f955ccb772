import { defaultDatabaseRefusal, REQUIRE_DATABASE_URL_FLAG } from './default-database-guard';

describe('defaultDatabaseRefusal', () => {
  it.each([
    [{ NODE_ENV: 'production' }, [], /NODE_ENV=production/],
    [{ APP_MODE: 'production' }, [], /APP_MODE=production/],
    [{}, [REQUIRE_DATABASE_URL_FLAG], /--require-database-url/],
    [{ SQLITE_PATH: '/srv/app.sqlite' }, [REQUIRE_DATABASE_URL_FLAG], /without DATABASE_URL/],
  ])('refuses the default SQLite file with %j %j', (env, args, why) => {
    expect(defaultDatabaseRefusal(env, args)).toMatch(why);
  });

  it.each([
    [{}, []],
    [{ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/app' }, []],
    [{ NODE_ENV: 'production', DATA_DIR: '/srv/data' }, []],
    [{ APP_MODE: 'production', SQLITE_PATH: '/srv/app.sqlite' }, []],
    [{ DATABASE_URL: 'postgres://db/app' }, [REQUIRE_DATABASE_URL_FLAG]],
  ])('lets %j %j through', (env, args) => {
    expect(defaultDatabaseRefusal(env, args)).toBeNull();
  });
});
