import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authConfig } from './auth.config';

function withEnv<T>(vars: Record<string, string | undefined>, run: () => T): T {
  const saved = { ...process.env };
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    return run();
  } finally {
    process.env = saved;
  }
}

describe('authConfig', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'cgk-auth-config-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const base = () => ({
    DATA_DIR: dataDir,
    JWT_SECRET: undefined,
    APP_MODE: undefined,
    API_KEY_PREFIX: undefined,
    API_KEY_MAX_LIFETIME_DAYS: undefined,
  });

  it('reads the environment only: an unset JWT_SECRET stays unset outside production', () => {
    const config = withEnv(base(), () => authConfig());
    expect(config.jwtSecret).toBeUndefined();
    expect(readdirSync(dataDir)).toEqual([]);
    expect(config).toMatchObject({
      apiKeyPrefix: 'cgk',
      apiKeyMode: 'test',
      accessTokenTtlSeconds: 900,
      clockSkewSeconds: 60,
    });
    const given = 'g'.repeat(40);
    expect(withEnv({ ...base(), JWT_SECRET: given }, () => authConfig()).jwtSecret).toBe(given);
  });

  it('requires JWT_SECRET in production, and issues live keys there', () => {
    expect(() => withEnv({ ...base(), APP_MODE: 'production' }, () => authConfig())).toThrow(
      /JWT_SECRET is required in production/,
    );
    const config = withEnv({ ...base(), APP_MODE: 'production', JWT_SECRET: 's'.repeat(32) }, () =>
      authConfig(),
    );
    expect(config.apiKeyMode).toBe('live');
  });

  it('refuses a short secret without echoing it, and a bad key prefix', () => {
    expect(() => withEnv({ ...base(), JWT_SECRET: 'short-secret' }, () => authConfig())).toThrow(
      /at least 32 characters \(got "<redacted>"\)/,
    );
    for (const prefix of ['C', 'cgk_', '1ab', 'a'.repeat(17)]) {
      expect(() => withEnv({ ...base(), API_KEY_PREFIX: prefix }, () => authConfig())).toThrow(
        /API_KEY_PREFIX/,
      );
    }
    expect(withEnv({ ...base(), API_KEY_PREFIX: 'acme2' }, () => authConfig()).apiKeyPrefix).toBe(
      'acme2',
    );
  });

  it('bounds the lifetime of new API keys: 730 days unless API_KEY_MAX_LIFETIME_DAYS says otherwise', () => {
    expect(withEnv(base(), () => authConfig()).apiKeyMaxLifetimeDays).toBe(730);
    expect(
      withEnv({ ...base(), API_KEY_MAX_LIFETIME_DAYS: '90' }, () => authConfig())
        .apiKeyMaxLifetimeDays,
    ).toBe(90);
    for (const bad of ['0', '-1', '1.5', 'forever', '36501']) {
      expect(() =>
        withEnv({ ...base(), API_KEY_MAX_LIFETIME_DAYS: bad }, () => authConfig()),
      ).toThrow(/API_KEY_MAX_LIFETIME_DAYS must be an integer between 1 and 36500/);
    }
  });

  it('AUTH_REFRESH_REUSE_GRACE_SECONDS: 10 by default, 0 to 60, anything else refused', () => {
    expect(withEnv(base(), () => authConfig()).refreshReuseGraceSeconds).toBe(10);
    const set = (value: string) =>
      withEnv({ ...base(), AUTH_REFRESH_REUSE_GRACE_SECONDS: value }, () => authConfig());
    expect(set('0').refreshReuseGraceSeconds).toBe(0);
    expect(set('60').refreshReuseGraceSeconds).toBe(60);
    expect(() => set('61')).toThrow(/AUTH_REFRESH_REUSE_GRACE_SECONDS/);
    expect(() => set('soon')).toThrow(/AUTH_REFRESH_REUSE_GRACE_SECONDS/);
  });
});
