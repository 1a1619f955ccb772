import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICE_NODE_FLAGS, SERVICE_PROCESS_ENV } from '../../src/bootstrap/process-settings';
import { SHUTDOWN_DEADLINE_MARGIN_MS } from '../../src/lifecycle/shutdown-deadline';
import { closedPort } from '../helpers/ports';
import { pollUntil } from '../helpers/wait';
import { ensureDistBuilt } from '../helpers/built-app-process';

const GRACE_MS = 2_000;
/** The deadline the service promises, plus time for the OS to reap it and report the exit. */
const STOP_WITHIN_MS = GRACE_MS + SHUTDOWN_DEADLINE_MARGIN_MS + 1_000;

interface Started {
  child: ChildProcess;
  base: string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: string | null }>;
}

/**
 * Issue 34 item 7: `LOG_FORMAT=json node dist/main.js | head -c 2000` (a log reader that goes
 * away) used to freeze the service: no /health/live, SIGTERM ignored, the same write retried
 * every 100 ms until SIGKILL. The reader here is the test's end of the stdout pipe, closed when
 * the first bytes arrive (during boot) or while requests are in flight.
 */
describe('A service whose stdout reader goes away', () => {
  const root = join(__dirname, '..', '..');
  const children: ChildProcess[] = [];
  const dataDirs: string[] = [];

  beforeAll(() => {
    ensureDistBuilt();
  });
  afterAll(() => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  async function start(): Promise<Started> {
    const dataDir = mkdtempSync(join(tmpdir(), 'cgk-stdout-'));
    dataDirs.push(dataDir);
    const port = await closedPort();
    const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, 'dist/main.js'], {
      cwd: root,
      env: {
        ...process.env,
        ...SERVICE_PROCESS_ENV,
        PORT: String(port),
        HOST: '127.0.0.1',
        DEVNET_PORT: '0',
        DATA_DIR: dataDir,
        LOG_FORMAT: 'json',
        SHUTDOWN_GRACE_MS: String(GRACE_MS),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    return { child, base: `http://127.0.0.1:${port}`, stderr: () => stderr, exited };
  }

  async function live(base: string): Promise<number> {
    try {
      return (await fetch(`${base}/health/live`, { signal: AbortSignal.timeout(2_000) })).status;
    } catch {
      return 0;
    }
  }

  async function stopsInTime(started: Started): Promise<void> {
    const signalled = Date.now();
    started.child.kill('SIGTERM');
    const exit = await started.exited;
    expect(Date.now() - signalled).toBeLessThan(STOP_WITHIN_MS);
    // The shutdown finished and exited 0: the hard deadline (exit 1) was not needed.
    expect(exit).toEqual({ code: 0, signal: null });
  }

  it('reader exits during boot: the service comes up, serves, and SIGTERM ends it in time', async () => {
    const started = await start();
    // `| head -c 2000`: the reader takes the first bytes of the boot logs and leaves.
    await new Promise<void>((resolve) => started.child.stdout!.once('data', () => resolve()));
    started.child.stdout!.destroy();

    await pollUntil(
      '/health/live',
      () => live(started.base),
      (status) => status === 200,
      {
        timeoutMs: 30_000,
        intervalMs: 200,
      },
    );
    const ready = await fetch(`${started.base}/health/ready`);
    expect(ready.status).toBe(200);
    await stopsInTime(started);
    // Said once on stderr, with the count of lines it dropped.
    expect(started.stderr().match(/stdout failed \(EPIPE\)/g)).toHaveLength(1);
    expect(started.stderr()).toMatch(/\d+ buffered line\(s\) dropped/);
  }, 60_000);

  it('reader exits under load: requests in flight and after are served, then SIGTERM ends it in time', async () => {
    const started = await start();
    let output = '';
    started.child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await pollUntil(
      'the Ready line',
      () => output,
      (text) => /Ready on /.test(text),
      {
        timeoutMs: 30_000,
        intervalMs: 100,
      },
    );

    // Twenty clients in a loop: every request writes a request-log line.
    const statuses: number[] = [];
    let loading = true;
    const clients = Array.from({ length: 20 }, async () => {
      while (loading) statuses.push(await live(started.base));
    });
    await pollUntil(
      'requests under way',
      () => statuses.length,
      (n) => n >= 200,
    );
    started.child.stdout!.destroy();
    const atBreak = statuses.length;
    await pollUntil(
      'requests after the break',
      () => statuses.length,
      (n) => n >= atBreak + 500,
      {
        timeoutMs: 20_000,
      },
    );
    loading = false;
    await Promise.all(clients);

    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    await stopsInTime(started);
    expect(started.stderr().match(/stdout failed \(EPIPE\)/g)).toHaveLength(1);
  }, 60_000);

  it('a shutdown hook that never finishes: the hard deadline ends the process in time', async () => {
    // The deadline as main.ts arms it, next to a SIGTERM handler that never completes (as a
    // shutdown hook waiting on a hung client would).
    const script = `
      const { armShutdownDeadline } = require('./dist/lifecycle/shutdown-deadline.js');
      const serving = setInterval(() => undefined, 1000);
      process.on('SIGTERM', () => clearInterval(serving) || setInterval(() => undefined, 1000));
      armShutdownDeadline({ shutdownReadinessDelayMs: 0, shutdownGraceMs: ${GRACE_MS} });
      process.stdout.write('armed\\n');
    `;
    const child = spawn(process.execPath, ['-e', script], { cwd: root, stdio: 'pipe' });
    children.push(child);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await new Promise((resolve) => child.stdout.once('data', resolve));
    const signalled = Date.now();
    child.kill('SIGTERM');
    expect(await exited).toBe(1);
    const took = Date.now() - signalled;
    expect(took).toBeGreaterThanOrEqual(GRACE_MS + SHUTDOWN_DEADLINE_MARGIN_MS - 100);
    expect(took).toBeLessThan(STOP_WITHIN_MS);
    expect(stderr).toMatch(/did not finish within 7000 ms .*: exiting now/);
  }, 30_000);
});
