import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { SERVICE_NODE_FLAGS, SERVICE_PROCESS_ENV } from '../../src/bootstrap/process-settings';
import { ensureDistBuilt } from '../helpers/built-app-process';
import { closedPort } from '../helpers/ports';

const ROOT = join(__dirname, '..', '..');

function runUntilExit(
  env: Record<string, string>,
): Promise<{ code: number | null; lines: string[] }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, 'dist/main.js'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, ...SERVICE_PROCESS_ENV, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('close', (code) =>
      resolve({ code, lines: output.split('\n').filter((l) => l !== '') }),
    );
  });
}

/**
 * Issue 43 item 5: with LOG_FORMAT=json every line of a start is JSON, from the first: Nest's boot
 * lines, TypeORM's connection retries and the line that ends a failed start (it was ~100 lines of
 * ANSI-coloured Nest text for a missing database).
 */
describe('LOG_FORMAT=json from the first line', () => {
  beforeAll(() => ensureDistBuilt());

  const parseAll = (lines: string[]) =>
    lines.map((line) => {
      try {
        return JSON.parse(line) as { level: number; msg: string; context?: string; event?: string };
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
    });

  it('a start against a missing database: only JSON lines, the retries and the failure included', async () => {
    const port = await closedPort();
    const { code, lines } = await runUntilExit({
      LOG_FORMAT: 'json',
      PORT: '0',
      DEVNET_PORT: '0',
      DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/missing`,
    });
    expect(code).toBe(1);
    const entries = parseAll(lines);
    expect(lines.join('\n')).not.toContain('\u001b['); // no ANSI colour anywhere
    expect(entries).toContainEqual(
      expect.objectContaining({
        level: 50,
        context: 'TypeOrmModule',
        msg: expect.stringMatching(/^Unable to connect to the database\. Retrying \(1\)/),
      }),
    );
    expect(entries.at(-1)).toMatchObject({
      level: 60,
      event: 'service.start_failed',
      msg: `Failed to start: connect ECONNREFUSED 127.0.0.1:${port}`,
    });
  }, 90_000);

  it('a start refused by its configuration: one JSON line naming every setting', async () => {
    const { code, lines } = await runUntilExit({
      LOG_FORMAT: 'json',
      APP_MODE: 'production',
      PORT: '0',
      JWT_SECRET: 'short',
    });
    expect(code).toBe(1);
    const entries = parseAll(lines);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ level: 60, event: 'service.start_failed' });
    expect(entries[0].msg).toMatch(
      /^Failed to start: Invalid configuration, \d+ settings to fix:\n {2}JWT_SECRET/,
    );
  });
});
