import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { SERVICE_NODE_FLAGS, SERVICE_PROCESS_ENV } from '../../src/bootstrap/process-settings';

const ROOT = join(__dirname, '..', '..');

/**
 * Makes sure dist/ is built from the current sources, as the specs that run it need. Jest's
 * globalSetup (test/setup/build-dist.ts) has normally built it once for the run, and then this does
 * nothing; run on its own, it builds only if the sources changed, under the same lock as every other
 * build, so two workers never write dist/ at once.
 */
export function ensureDistBuilt(): void {
  if (process.env.TEST_DIST_BUILT === '1') return;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { buildIfChangedLocked } = require(join(ROOT, 'scripts/build/build-if-changed.cjs')) as {
    buildIfChangedLocked(root: string): { built: boolean; status: number };
  };
  const { status } = buildIfChangedLocked(ROOT);
  if (status !== 0) throw new Error(`building dist/ failed (npm run build exited with ${status})`);
}

export interface BuiltAppProcess {
  port: number;
  /** Everything printed so far, stdout and stderr. */
  output(): string;
  /** SIGTERM; resolves with how the process ended. */
  stop(): Promise<{ code: number | null; signal: string | null }>;
  kill(): void;
}

/**
 * Runs dist/main.js (call `ensureDistBuilt()` first) as `npm start` does, on ephemeral ports, and resolves once it
 * prints its Ready line.
 */
export async function startBuiltApp(
  env: Record<string, string>,
  /** Where dist/ is (an installed copy of the app, e.g. the image's runtime recipe); default: here. */
  cwd = ROOT,
): Promise<BuiltAppProcess> {
  const child: ChildProcess = spawn(process.execPath, [...SERVICE_NODE_FLAGS, 'dist/main.js'], {
    cwd,
    env: {
      ...process.env,
      ...SERVICE_PROCESS_ENV,
      PORT: '0',
      HOST: '127.0.0.1',
      DEVNET_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in 30 s:\n${output}`)), 30_000);
    child.stdout!.on('data', () => {
      const match = /Ready on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
  return {
    port,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', (code, signal) => resolve({ code, signal }));
        child.kill('SIGTERM');
      }),
    kill: () => child.kill('SIGKILL'),
  };
}
