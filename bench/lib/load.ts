import autocannon from 'autocannon';
import { pacedInProcess } from './paced-process';
import { cpuSeconds, memoryMb } from './process-stats';

export interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Status every answer must have (the auth-failure scenario expects 401). */
  expectStatus: number;
}

export interface Measurement {
  name: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  p99AtHalf: number;
  /**
   * The control's p99 (a bare app) at the same paced rate, run just after the scenario's half-max
   * run: what this machine, the client and the kernel add to any server's tail that minute
   * (bench/README.md, "Eighth session").
   */
  controlP99AtHalf?: number;
  cpuMsPerReq: number;
  /** CPU per request during the half-max run: the per-request cost when requests rarely overlap. */
  cpuMsPerReqAtHalf: number;
  rssMb: number;
  /** The largest RSS sampled (every 100 ms) while this scenario's load ran. */
  rssUnderLoadMb: number;
  unexpected: number;
  requests: number;
  /** When the saturating run ran, in µs of the monotonic clock V8's CPU profiles use too. */
  window: [number, number];
  /** When the half-max run ran, in ms since the epoch (the stall probe's clock). */
  halfWindow: [number, number];
  /** The same, in µs of the monotonic clock (profile-summary.ts `--window`, `<name> @half`). */
  halfWindowUs: [number, number];
  /** CPU per request over the bare app's, from short runs alternating with the bare app's. */
  interleaved?: { pooled: number; min: number; max: number };
}

/** The bare app, measured in turn with each scenario (interleavedRatio). */
export interface Baseline {
  port: number;
  pid: number;
  scenario: Scenario;
}

/**
 * CPU per request relative to the bare app, from `rounds` pairs of short saturating runs, the
 * bare app's and the scenario's back to back: on a VM whose speed drifts over minutes, a scenario
 * and a bare run seconds apart see the same machine (bench/README.md, issue 17). The ratio pools
 * each side's CPU and requests over all its runs (a full collection that falls in one short run
 * counts as it would in a long one); min and max are the single pairs' ratios.
 */
async function interleavedRatio(
  port: number,
  pid: number,
  s: Scenario,
  bare: Baseline,
  opts: { connections: number; rounds: number; seconds: number },
): Promise<{ pooled: number; min: number; max: number }> {
  const pairs: Array<{ bare: Run; scenario: Run }> = [];
  for (let i = 0; i < opts.rounds; i += 1) {
    // Each run starts once the service has finished what the previous run left (queued requests,
    // the usage batch, its collections), so neither side pays for the other's tail.
    await untilQuiet(pid);
    const b = await run(bare.port, bare.pid, bare.scenario, opts);
    await untilQuiet(pid);
    pairs.push({ bare: b, scenario: await run(port, pid, s, opts) });
  }
  const perRequest = (runs: Run[]) =>
    runs.reduce((sum, r) => sum + r.cpuMsPerReq * r.requests, 0) /
    Math.max(
      1,
      runs.reduce((sum, r) => sum + r.requests, 0),
    );
  const ratios = pairs.map((p) => p.scenario.cpuMsPerReq / p.bare.cpuMsPerReq);
  return {
    pooled: perRequest(pairs.map((p) => p.scenario)) / perRequest(pairs.map((p) => p.bare)),
    min: Math.min(...ratios),
    max: Math.max(...ratios),
  };
}

export interface Run {
  requests: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  cpuMsPerReq: number;
  unexpected: number;
  window: [number, number];
}

/** One autocannon run against `port` (saturating, or at `rate` req/s), with `pid`'s CPU per request. */
export async function run(
  port: number,
  pid: number,
  s: Scenario,
  opts: { connections: number; seconds: number; rate?: number },
): Promise<Run> {
  const cpuBefore = cpuSeconds(pid);
  const startedUs = monotonicUs();
  let unexpected = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${s.path}`,
    method: s.method,
    headers: { 'content-type': 'application/json', ...(s.headers ?? {}) },
    body: s.body === undefined ? undefined : JSON.stringify(s.body),
    connections: opts.connections,
    duration: opts.seconds,
    ...(opts.rate ? { overallRate: opts.rate } : {}),
    setupClient: (client) => {
      client.on('response', (statusCode: number) => {
        if (statusCode !== s.expectStatus) unexpected += 1;
      });
    },
  });
  const requests = result.requests.total;
  return {
    requests,
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMsPerReq: ((cpuSeconds(pid) - cpuBefore) * 1000) / Math.max(1, requests),
    unexpected: unexpected + result.errors + result.timeouts,
    window: [startedUs, monotonicUs()],
  };
}

/** Resolves once the process used at most one clock tick of CPU in 200 ms (at most 3 s). */
export async function untilQuiet(pid: number): Promise<void> {
  const deadline = Date.now() + 3000;
  let before = cpuSeconds(pid);
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = cpuSeconds(pid);
    if (now - before <= 0.01) return;
    before = now;
  }
}

/** CLOCK_MONOTONIC in µs: the clock of a .cpuprofile's timestamps (Linux), any process. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * One scenario: a warm-up, a saturating run at `connections` (throughput, CPU per request), then
 * an open-loop run at half that throughput with requests evenly spaced (paced-client.cjs, a
 * client process of its own), whose p99 is the latency target's figure. With `control`, that bare
 * app is then paced at the same rate for as long, so the row carries the machine's own tail at
 * that rate, measured the same minute.
 */
export async function measure(
  port: number,
  pid: number,
  s: Scenario,
  connections: number,
  seconds: number,
  extra: {
    interleave?: { bare: Baseline; rounds: number; seconds: number };
    control?: Baseline;
  } = {},
): Promise<Measurement> {
  const { interleave, control } = extra;
  let rssUnderLoad = 0;
  const sampler = setInterval(
    () => (rssUnderLoad = Math.max(rssUnderLoad, memoryMb(pid).rss)),
    100,
  );
  await run(port, pid, s, { connections, seconds: 1 });
  const max = await run(port, pid, s, { connections, seconds });
  const halfOpts = { rate: Math.max(1, max.reqPerSec / 2), seconds, maxInFlight: connections };
  // The half-max figure describes a steady half load, not the way out of the saturating run
  // (its queued requests, the usage batch it left, its collections).
  await untilQuiet(pid);
  const halfStarted = Date.now();
  const halfStartedUs = monotonicUs();
  const cpuBeforeHalf = cpuSeconds(pid);
  const half = await pacedInProcess(port, s, halfOpts);
  // Before the interleaved pairs below: they saturate the service again.
  const halfWindow: [number, number] = [halfStarted, Date.now()];
  const halfWindowUs: [number, number] = [halfStartedUs, monotonicUs()];
  const cpuMsPerReqAtHalf = ((cpuSeconds(pid) - cpuBeforeHalf) * 1000) / Math.max(1, half.requests);
  clearInterval(sampler);
  // After the scenario's run, not before: the scenario starts as it always has, from a service
  // that has just gone quiet (an idle vCPU runs slower at first: bench/README.md, "Eighth session").
  const controlRun = control && (await pacedInProcess(control.port, control.scenario, halfOpts));
  if (controlRun && controlRun.unexpected > 0)
    process.stderr.write(
      `control run after ${s.name}: ${controlRun.unexpected} unexpected answers\n`,
    );
  const interleaved =
    interleave && interleave.rounds > 0
      ? await interleavedRatio(port, pid, s, interleave.bare, {
          connections,
          rounds: interleave.rounds,
          seconds: interleave.seconds,
        })
      : undefined;
  return {
    name: s.name,
    reqPerSec: max.reqPerSec,
    p50: max.p50,
    p99: max.p99,
    p99AtHalf: Math.round(half.p99 * 10) / 10,
    controlP99AtHalf: controlRun && Math.round(controlRun.p99 * 10) / 10,
    cpuMsPerReq: max.cpuMsPerReq,
    cpuMsPerReqAtHalf,
    rssMb: memoryMb(pid).peak,
    rssUnderLoadMb: rssUnderLoad,
    unexpected: max.unexpected + half.unexpected,
    requests: max.requests + half.requests,
    window: max.window,
    halfWindow,
    halfWindowUs,
    interleaved,
  };
}
