import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDistBuilt } from '../helpers/built-app-process';

/**
 * Issue 43 item 5: `create-account` run without the service's environment wrote to a default
 * SQLite file and exited 0. In production mode without DATABASE_URL, SQLITE_PATH or DATA_DIR, or
 * with --require-database-url and no DATABASE_URL, it refuses.
 */
describe('CLI on the default SQLite file', () => {
  const root = join(__dirname, '..', '..');
  let dataDir: string;
  beforeAll(() => ensureDistBuilt());
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'cgk-cli-db-'))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const cli = (env: Record<string, string>, cwd: string, ...args: string[]) =>
    spawnSync(
      process.execPath,
      [
        join(root, 'dist/cli/main.js'),
        ...args,
        'create-account',
        '--name',
        'Acme',
        '--email',
        'a@example.com',
        '--password',
        'correct horse battery staple',
      ],
      { cwd, encoding: 'utf8', env: { PATH: process.env.PATH, ...env } },
    );

  // Run from an empty folder: the default file would be ./data/app.sqlite there.
  it.each([
    [
      'NODE_ENV=production',
      { NODE_ENV: 'production' },
      [],
      /default SQLite file \(NODE_ENV=production\)/,
    ],
    [
      'APP_MODE=production',
      { APP_MODE: 'production' },
      [],
      /default SQLite file \(APP_MODE=production\)/,
    ],
    [
      '--require-database-url',
      { DATA_DIR: 'here' },
      ['--require-database-url'],
      /without DATABASE_URL \(--require-database-url\)/,
    ],
  ])('refuses with %s: exit 2, the reason on stderr, no file written', (_, env, args, reason) => {
    const run = cli(env as Record<string, string>, dataDir, ...(args as string[]));
    expect(run.stderr).toMatch(reason);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('runs in production mode when DATA_DIR names the database (a SQLite install)', () => {
    const run = cli({ NODE_ENV: 'production', DATA_DIR: dataDir }, root);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(existsSync(join(dataDir, 'app.sqlite'))).toBe(true);
  });
});
