import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = join(__dirname, 'rotate-env-secret.sh');

/**
 * The compose stack's secrets are files (docker-compose.yml, ./secrets/): the rotation script
 * writes the new value into the file and lists the old one in the env file's PREVIOUS setting.
 * (The env-file mode is run as the docs paste it by test/docs/secret-rotation-docs.e2e-spec.ts.)
 */
describe('scripts/ops/rotate-env-secret.sh with a secret file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cgk-rotate-file-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('puts a fresh value in the file (same mode) and the old one first in PREVIOUS, printing no secret', () => {
    const env = join(dir, '.env.production');
    const secret = join(dir, 'jwt_secret');
    writeFileSync(env, `APP_MODE=production\nJWT_PREVIOUS_SECRETS=${'e'.repeat(48)}\n`, {
      mode: 0o600,
    });
    writeFileSync(secret, `${'o'.repeat(48)}\n`, { mode: 0o400 });
    const out = execFileSync('bash', [SCRIPT, 'JWT_SECRET', 'JWT_PREVIOUS_SECRETS', env, secret], {
      encoding: 'utf8',
    });
    expect(out).toBe(
      `JWT_SECRET rotated in ${secret}; JWT_PREVIOUS_SECRETS lists 2 earlier value(s)\n`,
    );
    const fresh = readFileSync(secret, 'utf8');
    expect(fresh).toMatch(/^[A-Za-z0-9+/]{64}\n$/);
    expect(statSync(secret).mode & 0o777).toBe(0o400);
    expect(readFileSync(env, 'utf8')).toBe(
      `APP_MODE=production\nJWT_PREVIOUS_SECRETS=${'o'.repeat(48)},${'e'.repeat(48)}\n`,
    );
    expect(out).not.toContain(fresh.trim());
  });
});
