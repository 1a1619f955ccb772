import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { SERVICE_NODE_FLAGS, SERVICE_PROCESS_ENV } from '../../src/bootstrap/process-settings';

export interface BuiltAppProcess {
  port: number;
  /** Everything printed so far, stdout and stderr. */
  output(): string;
  /** SIGTERM; resolves with how the process ended. */
  stop(): Promise<{ code: number | null; signal: string | null }>;
  kill(): void;
}

/**
 * Runs dist/main.js (build first) as `npm start` does, on ephemeral ports, and resolves once it
 * prints its Ready line.
 */
export async function startBuiltApp(env: Record<string, string>): Promise<BuiltAppProcess> {
  const child: ChildProcess = spawn(process.execPath, [...SERVICE_NODE_FLAGS, 'dist/main.js'], {
    cwd: join(__dirname, '..', '..'),
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
