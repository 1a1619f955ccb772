import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSecretFiles } from './secret-files';

describe('loadSecretFiles (NAME_FILE)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cgk-secret-files-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text, { mode: 0o600 });
    return join(dir, name);
  };

  it('reads each secret from its file, dropping the trailing line break', () => {
    const env: Record<string, string | undefined> = {
      JWT_SECRET_FILE: file('jwt', `${'j'.repeat(48)}\n`),
      DATABASE_URL_FILE: file('db', 'postgres://cgk:s3cret@postgres:5432/cgk\r\n'),
      CHAIN_NETWORK_FILE: '/etc/cgk/network.json',
    };
    loadSecretFiles(env);
    expect(env.JWT_SECRET).toBe('j'.repeat(48));
    expect(env.DATABASE_URL).toBe('postgres://cgk:s3cret@postgres:5432/cgk');
    // CHAIN_NETWORK_FILE is a setting of its own, not a secret file.
    expect(env.CHAIN_NETWORK).toBeUndefined();
  });

  it('refuses both set, an unreadable file and an empty one, naming NAME_FILE and never the value', () => {
    const both = { JWT_SECRET: 'x'.repeat(48), JWT_SECRET_FILE: file('jwt2', 'y'.repeat(48)) };
    expect(() => loadSecretFiles(both)).toThrow(/JWT_SECRET_FILE and JWT_SECRET are both set/);
    expect(() => loadSecretFiles({ PKCS11_PIN_FILE: join(dir, 'missing') })).toThrow(
      /PKCS11_PIN_FILE names a file that cannot be read \(ENOENT\)/,
    );
    expect(() => loadSecretFiles({ MFA_ENCRYPTION_KEY_FILE: file('empty', '\n') })).toThrow(
      /MFA_ENCRYPTION_KEY_FILE names an empty file/,
    );
  });
});
