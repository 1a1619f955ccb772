/**
 * The paced (half-max) client runs in a process of its own (paced-client.cjs, plain JavaScript):
 * in the bench process it shared a heap with autocannon, ethers, ts-node and every earlier run's
 * results, and that heap's mark-compacts (3-13 ms, logged by the stall probe as `client:GC`)
 * stalled the client's loop: requests answered during the pause were timed late and counted in
 * the service's p99 (bench/README.md, "Sixth session").
 *
 * Forked once, on first use, and reused; `stopPacedProcess()` ends it. With BENCH_STALLS, the
 * stall table's last column counts the client's GC pauses over 2 ms in each half-max run.
 */
import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import type { Scenario } from './load';

export interface PacedOptions {
  rate: number;
  seconds: number;
  maxInFlight: number;
}

export interface PacedResult {
  requests: number;
  p50: number;
  p99: number;
  max: number;
  unexpected: number;
}

let child: ChildProcess | undefined;

function start(): ChildProcess {
  // BENCH_STALLS: the probe logs the client's own stalls (`client:` lines), to line up with the
  // service's.
  const probe = process.env.BENCH_STALLS ? ['-r', join(__dirname, 'stall-probe.cjs')] : [];
  return fork(join(__dirname, 'paced-client.cjs'), [], {
    execArgv: probe,
    env: { ...process.env, BENCH_STALLS_WHO: 'client' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/**
 * One paced run (paced-client.cjs) in the client process; resolves with its result.
 * BENCH_PACED=inline runs it in the bench process instead, as before (the A/B of bench/README.md).
 */
export function pacedInProcess(
  port: number,
  scenario: Scenario,
  opts: PacedOptions,
): Promise<PacedResult> {
  if (process.env.BENCH_PACED === 'inline') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { paced } = require('./paced-client.cjs') as {
      paced(port: number, s: Scenario, opts: PacedOptions): Promise<PacedResult>;
    };
    return paced(port, scenario, opts);
  }
  child ??= start();
  const c = child;
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`paced client exited (${code}) during a run`));
    c.once('exit', onExit);
    c.once('message', (result: PacedResult) => {
      c.off('exit', onExit);
      resolve(result);
    });
    c.send({ port, scenario, opts });
  });
}

export function stopPacedProcess(): void {
  child?.disconnect();
  child = undefined;
}
