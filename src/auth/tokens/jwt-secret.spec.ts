import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '../../config/app.config';
import type { AuthConfig } from '../../config/auth.config';
import { JwtSecret, jwtKeyId, storedJwtSecret } from './jwt-secret';

describe(JwtSecret.name, () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'cgk-jwt-secret-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const secretFor = (jwtSecret: string | undefined) =>
    new JwtSecret(
      { jwtSecret, jwtPreviousSecrets: [] } as unknown as AuthConfig,
      {
        dataDir,
      } as AppConfig,
    ).value;

  it('generates the secret once, in DATA_DIR/jwt-secret with mode 0600', () => {
    const first = secretFor(undefined);
    expect(first).toHaveLength(64);
    expect(secretFor(undefined)).toBe(first);
    const file = join(dataDir, 'jwt-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('prefers JWT_SECRET and then writes nothing', () => {
    expect(secretFor('e'.repeat(32))).toBe('e'.repeat(32));
    expect(() => statSync(join(dataDir, 'jwt-secret'))).toThrow();
  });

  it('replaces a stored secret that is too short', () => {
    writeFileSync(join(dataDir, 'jwt-secret'), 'short\n');
    const secret = storedJwtSecret(dataDir);
    expect(secret).toHaveLength(64);
    expect(readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim()).toBe(secret);
  });
});

describe('JwtSecret key ids', () => {
  const current = 'c'.repeat(40);
  const previous = 'p'.repeat(40);
  const secret = new JwtSecret(
    { jwtSecret: current, jwtPreviousSecrets: [previous, current] } as unknown as AuthConfig,
    { dataDir: '/nonexistent' } as AppConfig,
  );

  it('names the current secret by a kid that does not reveal it', () => {
    expect(secret.keyId).toBe(jwtKeyId(current));
    expect(secret.keyId).toMatch(/^[0-9a-f]{16}$/);
    expect(secret.keyId).not.toBe(jwtKeyId(previous));
  });

  it('verifies a kid with its own secret, no kid with every accepted one, an unknown kid with none', () => {
    expect(secret.verificationSecrets(jwtKeyId(previous))).toEqual([previous]);
    expect(secret.verificationSecrets(jwtKeyId(current))).toEqual([current]);
    expect(secret.verificationSecrets(undefined)).toEqual([current, previous]);
    expect(secret.verificationSecrets(jwtKeyId('r'.repeat(40)))).toEqual([]);
  });
});
