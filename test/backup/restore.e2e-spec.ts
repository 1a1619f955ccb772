import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { createTestApp, TestAccount, TestApp } from '../helpers/app';
import { createApiKey, login } from '../helpers/auth';
import { createTestDatabase, TestDatabase, testEngine } from '../helpers/test-env';

/**
 * docs/operators/backups.md: a backup taken, the database dropped, the backup
 * restored, and the service serves the same API keys, usage and audit trail. On PostgreSQL with
 * pg_dump / pg_restore as the docs show them (the test's own schema); on the embedded SQLite, the
 * file copied while the service is stopped.
 */
describe('Backup and restore', () => {
  let db: TestDatabase;
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  async function boot(): Promise<TestApp> {
    await t?.close();
    t = await createTestApp({ db });
    return t;
  }

  /** What an account sees: its audit trail, its usage, its keys (reads add no audit event). */
  async function snapshot(app: TestApp, key: string, account: TestAccount) {
    const withKey = (path: string) =>
      request(app.server).get(path).set('X-API-Key', key).expect(200);
    const usage = (await withKey('/api/v1/usage/stats')).body;
    const audit = (await withKey('/api/v1/audit-events?limit=100')).body.items;
    const keys = (
      await request(app.server)
        .get('/api/v1/api-keys')
        .set('Authorization', `Bearer ${await login(app, account)}`)
        .expect(200)
    ).body.items.map((k: Record<string, unknown>) => ({
      id: k.id,
      prefix: k.prefix,
      scopes: k.scopes,
      active: k.active,
    }));
    return { usage, audit, keys };
  }

  function backup(dumpFile: string) {
    if (testEngine() === 'postgres') {
      const { DATABASE_URL: url, DATABASE_SCHEMA: schema } = db.env;
      execFileSync('pg_dump', [
        '--format=custom',
        '--no-owner',
        '-n',
        schema,
        '--file',
        dumpFile,
        url,
      ]);
      execFileSync('psql', [url, '-qc', `DROP SCHEMA "${schema}" CASCADE`]);
      execFileSync('pg_restore', ['--no-owner', '--dbname', url, dumpFile]);
    } else {
      const file = join(db.dataDir, 'app.sqlite');
      copyFileSync(file, dumpFile);
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
      expect(existsSync(file)).toBe(false);
      copyFileSync(dumpFile, file);
    }
  }

  it('serves the same API keys, usage and audit trail after dump, drop and restore', async () => {
    db = await createTestDatabase();
    let app = await boot();
    const account = await app.createAccount();
    const token = await login(app, account);
    const key = await createApiKey(app, token, ['usage:read', 'audit:read'], { name: 'reader' });
    await createApiKey(app, token, ['defi:preflight'], { name: 'other' });
    for (let i = 0; i < 3; i++)
      await request(app.server).get('/api/v1/usage/stats').set('X-API-Key', key.key).expect(200);
    app = await boot(); // a restart writes every queued usage row
    const before = await snapshot(app, key.key, account);
    expect(before.audit.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(['api_key.created', 'auth.login_succeeded']),
    );
    expect(before.usage.totals.requests).toBeGreaterThanOrEqual(3);
    await t!.close();
    t = undefined;

    backup(join(db.dataDir, 'backup.dump'));

    app = await boot();
    const after = await snapshot(app, key.key, account);
    expect(after.keys).toEqual(before.keys);
    // The snapshot's own three reads (usage, audit, keys) were written when that instance stopped.
    expect(after.usage.totals.requests).toBe(before.usage.totals.requests + 3);
    // Its login added one audit event; everything before it is there, unchanged.
    expect(after.audit).toHaveLength(before.audit.length + 1);
    expect(after.audit).toEqual(expect.arrayContaining(before.audit));
  });
});
