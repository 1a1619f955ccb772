import request from 'supertest';
import { DataSource } from 'typeorm';
import { SqliteCheckpointer } from '../../src/database/sqlite-checkpointer';
import { createTestApp } from '../helpers/app';

describe('Boot, migrations and health', () => {
  it('runs every migration on an empty database and reports ready', async () => {
    const t = await createTestApp();
    try {
      const ds = t.app.get(DataSource);
      const executed = await ds.query('SELECT name FROM migrations');
      expect(executed.map((r: { name: string }) => r.name)).toEqual(
        ds.migrations.map((m) => m.name),
      );
      expect(await ds.showMigrations()).toBe(false);
      const ready = await request(t.server).get('/health/ready').expect(200);
      expect(ready.body.status).toBe('ok');
      expect(ready.body.info.database.status).toBe('up');
      await request(t.server).get('/health/live').expect(200, { status: 'ok' });
    } finally {
      await t.close();
    }
  });

  it("checkpoints SQLite's WAL on a worker thread, not in the app's own connection", async () => {
    const t = await createTestApp();
    try {
      const ds = t.app.get(DataSource);
      const checkpointer = t.app.get(SqliteCheckpointer);
      if (process.env.TEST_DB_ENGINE !== 'sqlite') {
        expect(checkpointer.running).toBe(false);
        return;
      }
      expect(checkpointer.running).toBe(true);
      expect(await ds.query('PRAGMA wal_autocheckpoint')).toEqual([{ wal_autocheckpoint: 0 }]);
      // What boot and the migrations wrote is in the WAL; the worker copies all of it back.
      const result = await checkpointer.checkpoint();
      expect(result).toEqual({ busy: 0, log: expect.any(Number), checkpointed: result?.log });
    } finally {
      await t.close();
    }
  });

  it.each([
    ['PORT', 'abc', /PORT must be an integer/],
    ['APP_MODE', 'staging', /APP_MODE must be one of demo, production/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL must use one of the protocols/],
  ])('fails to boot with a message naming %s', async (name, value, message) => {
    await expect(createTestApp({ env: { [name]: value } })).rejects.toThrow(message);
  });

  it('serves the OpenAPI document', async () => {
    const t = await createTestApp();
    try {
      const res = await request(t.server).get('/docs/json').expect(200);
      expect(res.body.openapi).toMatch(/^3\./);
      expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/health/ready']));
      expect(Object.keys(res.body.components.securitySchemes)).toEqual(
        expect.arrayContaining(['api-key', 'jwt']),
      );
    } finally {
      await t.close();
    }
  });
});
