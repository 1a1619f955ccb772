import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What `npm start` does on a fresh checkout: build with SWC, boot on embedded defaults, serve. */
describe('npm start on embedded defaults', () => {
  const root = join(__dirname, '..', '..');
  let dataDir: string;
  let child: ChildProcess | undefined;

  beforeAll(() => {
    execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'pipe' });
    dataDir = mkdtempSync(join(tmpdir(), 'cgk-start-'));
  });
  afterAll(() => {
    child?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is ready, seeds and prints the demo account, and exits cleanly on SIGTERM', async () => {
    const started = Date.now();
    child = spawn(process.execPath, ['dist/main.js'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DEVNET_PORT: '0',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not ready in 30 s:\n${output}`)), 30_000);
      child!.stdout!.on('data', () => {
        const match = /Ready on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
      child!.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
    });
    const readyMs = Date.now() - started;
    process.stdout.write(`npm start (built) ready in ${readyMs} ms\n`);

    const ready = await fetch(`http://127.0.0.1:${port}/health/ready`);
    expect(ready.status).toBe(200);
    const credentials = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8'));
    expect(output).toContain(`email:    ${credentials.email}`);
    expect(output).toContain(`password: ${credentials.password}`);

    // Nest closes the app on SIGTERM, then re-raises the signal: the process ends by SIGTERM, at once.
    const exit = await new Promise<{ code: number | null; signal: string | null }>((resolve) => {
      child!.once('exit', (code, signal) => resolve({ code, signal }));
      child!.kill('SIGTERM');
    });
    expect(exit).toEqual({ code: null, signal: 'SIGTERM' });
    expect(output).not.toMatch(/error/i);
  });
});
