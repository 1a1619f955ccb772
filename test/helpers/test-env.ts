import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

export type Engine = 'sqlite' | 'postgres';

export function testEngine(): Engine {
  return process.env.TEST_DB_ENGINE === 'postgres' ? 'postgres' : 'sqlite';
}

export interface TestDatabase {
  env: Record<string, string>;
  dataDir: string;
  drop(): Promise<void>;
}

/** A fresh database for one app: a temp SQLite file, or a new PostgreSQL schema. */
export async function createTestDatabase(engine: Engine = testEngine()): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cgk-test-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (engine === 'sqlite') {
    return { env: { DATA_DIR: dataDir }, dataDir, drop: async () => removeDir() };
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is required for the postgres e2e project');
  const schema = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withPg(url, (client) => client.query(`CREATE SCHEMA "${schema}"`));
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url, DATABASE_SCHEMA: schema },
    dataDir,
    drop: async () => {
      await withPg(url, (client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
      removeDir();
    },
  };
}

async function withPg<T>(url: string, run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Sets variables for the duration of `run` (config namespaces read process.env at compile time). */
export async function withEnv<T>(
  vars: Record<string, string | undefined>,
  run: () => Promise<T>,
): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    return await run();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** Runs `run` with exactly these variables as the environment, nothing inherited. */
export function withOnlyEnv<T>(vars: Record<string, string>, run: () => T): T {
  const saved = process.env;
  process.env = { ...vars };
  try {
    return run();
  } finally {
    process.env = saved;
  }
}
