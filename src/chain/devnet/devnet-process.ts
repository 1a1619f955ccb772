/**
 * Runs the devnet in a managed child process. Why a child and not in-process: EVM execution
 * (deployment, eth_call, eth_estimateGas) is CPU work that would otherwise run on the API's event
 * loop and stall unrelated requests; a child also gives the devnet its own heap and lets the API
 * kill it cleanly on shutdown. The child dies with its parent (IPC disconnect).
 */
import { ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DevnetDeployment } from '../network/network.types';

export interface DevnetReadyMessage {
  type: 'ready';
  rpcUrl: string;
  deployment: DevnetDeployment;
  timings: { engineMs: number; deployMs: number };
}

export interface DevnetProcess extends DevnetReadyMessage {
  pid: number;
  startupMs: number;
  stop(): Promise<void>;
  /** Resolves when the child exits for any reason (a stop() included). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Shared devnets only: state its users keep across test files (e.g. the pristine snapshot id). */
  shared?: { pristineSnapshot: string | null };
}

export interface SpawnDevnetOptions {
  /** 0 = ephemeral (tests); default 8545. */
  port?: number;
  readyTimeoutMs?: number;
  /** Let the parent exit while the child runs (test workers); the child still dies with it. */
  detachFromEventLoop?: boolean;
}

function entryPoint(): { file: string; execArgv: string[] } {
  const compiled = join(__dirname, 'devnet.main.js');
  if (__filename.endsWith('.js') && existsSync(compiled)) return { file: compiled, execArgv: [] };
  // Running from TypeScript sources (jest, ts-node): transpile the child with swc as well.
  return { file: join(__dirname, 'devnet.main.ts'), execArgv: ['-r', 'ts-node/register'] };
}

export function spawnDevnet(options: SpawnDevnetOptions = {}): Promise<DevnetProcess> {
  const started = Date.now();
  const { file, execArgv } = entryPoint();
  const child: ChildProcess = fork(file, ['--port', String(options.port ?? 8545)], {
    execArgv,
    env: { ...process.env, TS_NODE_SWC: 'true', TS_NODE_TRANSPILE_ONLY: 'true' },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });

  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const killTimer = setTimeout(() => child.kill('SIGKILL'), 3_000);
      child.once('exit', () => {
        clearTimeout(killTimer);
        resolve();
      });
      child.kill('SIGTERM');
    });

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(
        new Error(
          `devnet did not start within ${options.readyTimeoutMs ?? 30_000} ms: ${stderr.trim()}`,
        ),
      );
    }, options.readyTimeoutMs ?? 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`devnet exited (code ${code}) before it was ready: ${stderr.trim()}`));
    });
    child.once('message', (message: DevnetReadyMessage) => {
      clearTimeout(timer);
      child.removeAllListeners('exit');
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((onExit) =>
        child.once('exit', (code, signal) => onExit({ code, signal })),
      );
      if (options.detachFromEventLoop) {
        child.unref();
        (child.channel as unknown as { unref(): void } | undefined)?.unref();
        child.stderr?.destroy();
      }
      resolve({ ...message, pid: child.pid!, startupMs: Date.now() - started, stop, exited });
    });
  });
}

const SHARED_SLOT = Symbol.for('compliance-defi-builder.shared-devnet');
type SharedHolder = { [SHARED_SLOT]?: Promise<DevnetProcess> };

/**
 * One devnet per process, started on first use and never stopped by its users (it exits with the
 * process). Test runs boot many app instances per jest worker: they share this one instead of
 * paying a deployment each. Jest gives every test file its own module registry and globals, so
 * the handle is parked on a Node built-in module object, the one thing those files share.
 */
export function sharedDevnet(
  options: Omit<SpawnDevnetOptions, 'detachFromEventLoop'> = {},
): Promise<DevnetProcess> {
  // The real module object (an `import * as` namespace would be a per-file copy under interop).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const holder = require('node:v8') as SharedHolder;
  holder[SHARED_SLOT] ??= spawnDevnet({
    ...options,
    port: options.port ?? 0,
    detachFromEventLoop: true,
  }).then(
    (devnet) => ({ ...devnet, stop: async () => undefined, shared: { pristineSnapshot: null } }),
    (error: unknown) => {
      delete holder[SHARED_SLOT];
      throw error;
    },
  );
  return holder[SHARED_SLOT];
}
