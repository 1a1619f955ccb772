import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BuiltAppProcess, ensureDistBuilt, startBuiltApp } from '../helpers/built-app-process';

/** What `npm start` does on a fresh checkout: build with SWC, boot on embedded defaults, serve. */
describe('npm start on embedded defaults', () => {
  let dataDir: string;
  let running: BuiltAppProcess | undefined;

  beforeAll(() => {
    ensureDistBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'cgk-start-'));
  });
  afterAll(() => {
    running?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is ready, seeds and prints the demo account, and exits cleanly on SIGTERM', async () => {
    const started = Date.now();
    running = await startBuiltApp({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
    const port = running.port;
    const readyMs = Date.now() - started;
    process.stdout.write(`npm start (built) ready in ${readyMs} ms\n`);

    const ready = await fetch(`http://127.0.0.1:${port}/health/ready`);
    expect(ready.status).toBe(200);
    const credentials = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8'));
    expect(running.output()).toContain(`email:    ${credentials.email}`);
    expect(running.output()).toContain(`password: ${credentials.password}`);

    // SIGTERM closes the app and the process exits 0 at once (a drain is a clean stop).
    const exit = await running.stop();
    expect(exit).toEqual({ code: 0, signal: null });
    expect(running.output()).not.toMatch(/error/i);
  });
});
