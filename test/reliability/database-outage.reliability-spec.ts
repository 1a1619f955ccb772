import request from 'supertest';
import { createTestApp, TestApp } from '../helpers/app';
import { TcpProxy } from '../helpers/tcp-proxy';
import { createTestDatabase, TestDatabase } from '../helpers/test-env';
import { pollUntil } from '../helpers/wait';

import { requireEnv } from './reliability-env';

/**
 * PostgreSQL disappears under a running app, then comes back. SQLite is a file in-process and
 * cannot become unreachable, so the reliability suite runs on PostgreSQL.
 */
describe('Database outage', () => {
  const pgUrl = requireEnv('TEST_DATABASE_URL');
  let proxy: TcpProxy;
  let db: TestDatabase;
  let t: TestApp;

  beforeAll(async () => {
    const target = new URL(pgUrl);
    proxy = await new TcpProxy(Number(target.port || 5432), target.hostname).up();
    db = await createTestDatabase('postgres');
    const viaProxy = new URL(pgUrl);
    viaProxy.port = String(proxy.port);
    t = await createTestApp({ db, env: { DATABASE_URL: viaProxy.toString() } });
  });
  afterAll(async () => {
    await proxy.up().catch(() => undefined);
    await t?.close();
    await db?.drop();
    await proxy.down();
  });

  it('answers 503 envelopes without internals while the database is down, and recovers', async () => {
    await request(t.server).get('/health/ready').expect(200);

    await proxy.down();
    const ready = await request(t.server).get('/health/ready').expect(503);
    expect(ready.body).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      error: 'Service Unavailable',
      phase: 'preflight',
    });
    expect(ready.body.details).toEqual([
      expect.objectContaining({ component: 'database', status: 'down' }),
    ]);

    const started = Date.now();
    const login = await request(t.server)
      .post('/auth/login')
      .send({ email: 'a@b.co', password: 'whatever-password' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(login.status).toBe(503);
    expect(login.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', error: 'Service Unavailable' });
    expect(JSON.stringify(login.body)).not.toMatch(/ECONNREFUSED|5432|select|stack/i);

    // Unrelated endpoints keep working.
    await request(t.server).get('/health/live').expect(200);

    await proxy.up();
    const status = await pollUntil(
      'readiness to recover',
      async () => (await request(t.server).get('/health/ready')).status,
      (s) => s === 200,
      { intervalMs: 250 },
    );
    expect(status).toBe(200);
  });
});
