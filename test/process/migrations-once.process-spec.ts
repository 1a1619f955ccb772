import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { SERVICE_NODE_FLAGS, SERVICE_PROCESS_ENV } from '../../src/bootstrap/process-settings';
import { MIGRATIONS } from '../../src/database/migrations';
import { BuiltAppProcess, ensureDistBuilt, startBuiltApp } from '../helpers/built-app-process';
import { acquireDevnet, DevnetHandle } from '../helpers/devnet';
import { createTestDatabase, TestDatabase } from '../helpers/test-env';

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const describePostgres = DATABASE_URL ? describe : describe.skip;
const root = join(__dirname, '..', '..');

/** JSON log lines at error level or above (pino: 50 error, 60 fatal). */
function errorLines(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{') && (JSON.parse(line) as { level: number }).level >= 50);
}

async function migrationCounts(db: TestDatabase): Promise<Record<string, number>> {
  const client = new Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; runs: string }>(
      `SELECT name, count(*) AS runs FROM "${db.env.DATABASE_SCHEMA}".migrations GROUP BY name`,
    );
    return Object.fromEntries(rows.map((row) => [row.name, Number(row.runs)]));
  } finally {
    await client.end();
  }
}

function runCli(env: Record<string, string>, args: string[]) {
  return promisify(execFile)(process.execPath, ['dist/cli/main.js', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
  });
}

/** dist/main.js until it exits (a start expected to fail). */
function startExpectingFailure(env: Record<string, string>) {
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, 'dist/main.js'], {
    cwd: root,
    env: { ...process.env, ...SERVICE_PROCESS_ENV, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, output })),
  );
}

/**
 * Issue 34 item 2: replicas started together on an empty PostgreSQL schema used to race on the
 * migrations (`duplicate key value violates unique constraint "pg_type_typname_nsp_index"`, logged
 * as a failed database connection, two of three saved by TypeORM's retry). Under the advisory lock
 * each migration runs once and nothing is logged at error level.
 */
describePostgres('Migrations with several replicas on one PostgreSQL schema', () => {
  let chain: DevnetHandle;
  const databases: TestDatabase[] = [];
  const apps: BuiltAppProcess[] = [];

  beforeAll(async () => {
    ensureDistBuilt();
    chain = await acquireDevnet();
  }, 120_000);
  afterAll(async () => {
    for (const app of apps) app.kill();
    for (const db of databases) await db.drop();
    await chain?.release();
  });

  async function freshSchema(): Promise<TestDatabase> {
    const db = await createTestDatabase('postgres');
    databases.push(db);
    return db;
  }

  it('three replicas starting together on an empty schema: each migration runs once, no error logged', async () => {
    const db = await freshSchema();
    const env = { ...db.env, ...chain.env, LOG_FORMAT: 'json', SEED_DEMO_ACCOUNT: 'false' };
    const started = await Promise.all([1, 2, 3].map(() => startBuiltApp(env)));
    apps.push(...started);

    for (const app of started) {
      const ready = await fetch(`http://127.0.0.1:${app.port}/health/ready`);
      expect(ready.status).toBe(200);
    }
    const counts = await migrationCounts(db);
    expect(counts).toEqual(Object.fromEntries(MIGRATIONS.map((m) => [m.name, 1])));
    await Promise.all(started.map((app) => app.stop()));
    for (const app of started) {
      expect(errorLines(app.output())).toEqual([]);
      expect(app.output()).not.toMatch(/Unable to connect to the database|duplicate key/);
    }
  }, 120_000);

  it('DATABASE_MIGRATIONS=off refuses a schema that is behind; `migrate` brings it up once', async () => {
    const db = await freshSchema();
    const env = { ...db.env, ...chain.env, LOG_FORMAT: 'json', SEED_DEMO_ACCOUNT: 'false' };

    const refused = await startExpectingFailure({ ...env, DATABASE_MIGRATIONS: 'off' });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(
      `Failed to start: DATABASE_MIGRATIONS=off and the database schema is behind this version: ${MIGRATIONS.length} pending migration(s)`,
    );
    expect(refused.output).toContain('npm run migrate');
    // Refused at once: a schema that is behind is not retried as a connection failure.
    expect(refused.output).not.toMatch(/Unable to connect to the database/);
    expect(await migrationCounts(db).catch(() => 'no migrations table')).toBe(
      'no migrations table',
    );

    // Two operators (or an operator and a deploy hook) at once: one runs them, one finds none.
    const [first, second] = await Promise.all([runCli(env, ['migrate']), runCli(env, ['migrate'])]);
    const outputs = [first.stdout, second.stdout].sort();
    expect(outputs.join('')).toContain(`ran ${MIGRATIONS.length} migration(s)`);
    expect(outputs.join('')).toContain('up to date, no migration pending');
    expect(await migrationCounts(db)).toEqual(
      Object.fromEntries(MIGRATIONS.map((m) => [m.name, 1])),
    );

    const app = await startBuiltApp({ ...env, DATABASE_MIGRATIONS: 'off' });
    apps.push(app);
    expect((await fetch(`http://127.0.0.1:${app.port}/health/ready`)).status).toBe(200);
    await app.stop();
    expect(errorLines(app.output())).toEqual([]);
  }, 120_000);
});
