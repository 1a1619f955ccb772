import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '../../config/app.config';
import type { AuthConfig } from '../../config/auth.config';
import { JwtSecret, storedJwtSecret } from './jwt-secret';

describe(JwtSecret.name, () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'cgk-jwt-secret-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const secretFor = (jwtSecret: string | undefined) =>
    new JwtSecret({ jwtSecret } as AuthConfig, { dataDir } as AppConfig).value;

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
