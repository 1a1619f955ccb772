/**
 * An open-loop load at a steady rate: requests start at even intervals (not autocannon's
 * `overallRate`, which lets every connection fire its whole per-second quota at the top of each
 * second and then idle, so "half of max" was max throughput for half a second). Latency counts
 * from when a request was due, so a stalled server cannot hide its queue (no coordinated
 * omission).
 * BENCH_TRACE=<file>: appends each request's due time (ms since the epoch, the stall probe's clock)
 * and latency (ms), one request a line, to line slow requests up with the stall probe's file.
 */
import { appendFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import type { Scenario } from './load';

export interface PacedResult {
  requests: number;
  p50: number;
  p99: number;
  max: number;
  unexpected: number;
}

export async function paced(
  port: number,
  s: Scenario,
  opts: { rate: number; seconds: number; maxInFlight: number },
): Promise<PacedResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: opts.maxInFlight });
  const body = s.body === undefined ? undefined : Buffer.from(JSON.stringify(s.body));
  const headers: Record<string, string | number> = {
    'content-type': 'application/json',
    ...(s.headers ?? {}),
    ...(body ? { 'content-length': body.length } : {}),
  };
  const latencies: number[] = [];
  const trace: string[] = [];
  const traceFile = process.env.BENCH_TRACE;
  let unexpected = 0;
  const one = (dueAt: number) =>
    new Promise<void>((resolve) => {
      const req = request(
        { agent, host: '127.0.0.1', port, method: s.method, path: s.path, headers },
        (res) => {
          res.resume();
          res.on('end', () => {
            const latency = performance.now() - dueAt;
            latencies.push(latency);
            if (traceFile)
              trace.push(`${Math.round(performance.timeOrigin + dueAt)} ${latency.toFixed(2)}\n`);
            if (res.statusCode !== s.expectStatus) unexpected += 1;
            resolve();
          });
        },
      );
      req.on('error', () => {
        unexpected += 1;
        resolve();
      });
      req.end(body);
    });

  const interval = 1000 / opts.rate;
  const total = Math.max(1, Math.round(opts.rate * opts.seconds));
  const started = performance.now();
  const inFlight: Array<Promise<void>> = [];
  let sent = 0;
  await new Promise<void>((done) => {
    const tick = () => {
      const now = performance.now();
      while (sent < total && started + sent * interval <= now) {
        inFlight.push(one(started + sent * interval));
        sent += 1;
      }
      if (sent >= total) return done();
      setTimeout(tick, Math.max(0, started + sent * interval - performance.now()));
    };
    tick();
  });
  await Promise.all(inFlight);
  agent.destroy();
  if (traceFile) appendFileSync(traceFile, trace.join(''));
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return {
    requests: latencies.length,
    p50: at(0.5),
    p99: at(0.99),
    max: latencies[latencies.length - 1] ?? NaN,
    unexpected,
  };
}
