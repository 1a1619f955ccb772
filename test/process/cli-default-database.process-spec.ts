import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDistBuilt } from '../helpers/built-app-process';

/**
 * Issue 43 item 5: `create-account` run without the service's environment wrote to a default
 * SQLite file and exited 0. In production mode, or with --require-database-url, it refuses.
 */
describe('CLI on the default SQLite file', () => {
  const root = join(__dirname, '..', '..');
  let dataDir: string;
  beforeAll(() => ensureDistBuilt());
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'cgk-cli-db-'))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const cli = (env: Record<string, string>, ...args: string[]) =>
    spawnSync(
      process.execPath,
      [
        'dist/cli/main.js',
        ...args,
        'create-account',
        '--name',
        'Acme',
        '--email',
        'a@example.com',
        '--password',
        'correct horse battery staple',
      ],
      { cwd: root, encoding: 'utf8', env: { PATH: process.env.PATH, DATA_DIR: dataDir, ...env } },
    );

  it.each([
    ['NODE_ENV=production', { NODE_ENV: 'production' }, []],
    ['--require-database-url', {}, ['--require-database-url']],
  ])('refuses with %s: exit 2, the reason on stderr, no file written', (why, env, args) => {
    const run = cli(env as Record<string, string>, ...(args as string[]));
    expect(run.stderr).toContain(`Refusing to use the default SQLite file (${why})`);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('still runs on the default file in the demo mode without the flag', () => {
    const run = cli({});
    expect(run.status).toBe(0);
    expect(existsSync(join(dataDir, 'app.sqlite'))).toBe(true);
  });
});
