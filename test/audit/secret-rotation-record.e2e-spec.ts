/**
 * Issue 58 item 3, secret rotations on the record: the secrets are edited in the env file, outside
 * any command, so the first start on a new value records `secret.rotated` in the operator audit
 * (fingerprints, never the value); a start on the same value records nothing.
 */
import { DataSource } from 'typeorm';
import { listOperatorChanges } from '../../src/audit/operator-audit';
import { secretFingerprint } from '../../src/audit/secret-rotation.recorder';
import { createTestApp } from '../helpers/app';
import { createTestDatabase, TestDatabase } from '../helpers/test-env';

describe('secret.rotated, noticed at start', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  const start = async (jwtSecret: string) => {
    const t = await createTestApp({ db, env: { JWT_SECRET: jwtSecret } });
    try {
      return await listOperatorChanges(t.app.get(DataSource), {
        type: 'secret.rotated',
        limit: 10,
      });
    } finally {
      await t.close();
    }
  };

  it('records the first value, each new one with the previous fingerprint, and nothing for the same', async () => {
    const [first, second] = ['a', 'b'].map((c) => c.repeat(48));
    const once = await start(first);
    expect(once).toEqual([
      expect.objectContaining({
        type: 'secret.rotated',
        actor: { type: 'system', id: null },
        target: { type: 'secret', id: 'JWT_SECRET' },
        data: {
          fingerprint: secretFingerprint('JWT_SECRET', first),
          previousFingerprint: null,
          noticed: 'at start',
        },
      }),
    ]);
    const rotated = await start(second);
    expect(rotated).toHaveLength(2);
    expect(rotated[0].data).toEqual({
      fingerprint: secretFingerprint('JWT_SECRET', second),
      previousFingerprint: secretFingerprint('JWT_SECRET', first),
      noticed: 'at start',
    });
    expect(await start(second)).toHaveLength(2);
    // Never the value itself.
    expect(JSON.stringify(rotated)).not.toMatch(/aaaa|bbbb/);
  });
});
