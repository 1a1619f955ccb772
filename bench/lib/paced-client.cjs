/**
 * The paced (half-max) client: an open-loop load at a steady rate. Requests start at even
 * intervals (not autocannon's `overallRate`, which lets every connection fire its whole
 * per-second quota at the top of each second and then idle, so "half of max" was max throughput
 * for half a second). Latency counts from when a request was due, so a stalled server cannot hide
 * its queue (no coordinated omission).
 *
 * A process of its own (paced-process.ts forks it and sends it runs over IPC), in plain JavaScript
 * so that it loads neither ts-node nor TypeScript: its heap holds one run's latencies (typed
 * arrays, allocated once per run) and little else. Run inside the bench process, or forked with
 * ts-node, the client's own mark-compacts (up to 12.6 ms, logged as `client:GC`) stalled its loop
 * and the requests answered meanwhile were timed late, in the service's p99 (bench/README.md,
 * "Sixth session").
 *
 * BENCH_TRACE=<file>: appends each request's due time (ms since the epoch, the stall probe's
 * clock) and latency (ms), one request a line, to line slow requests up with the stall probe's
 * file.
 */
'use strict';
/* global require, module, process, Buffer, setTimeout */
const { appendFileSync } = require('node:fs');
const { Agent, request } = require('node:http');
const { performance } = require('node:perf_hooks');

/** { port, scenario: { method, path, headers, body, expectStatus }, opts } -> PacedResult. */
async function paced(port, s, opts) {
  const agent = new Agent({ keepAlive: true, maxSockets: opts.maxInFlight });
  const body = s.body === undefined ? undefined : Buffer.from(JSON.stringify(s.body));
  const headers = {
    'content-type': 'application/json',
    ...(s.headers ?? {}),
    ...(body ? { 'content-length': body.length } : {}),
  };
  const interval = 1000 / opts.rate;
  const total = Math.max(1, Math.round(opts.rate * opts.seconds));
  const due = new Float64Array(total);
  const latencies = new Float64Array(total);
  let answered = 0;
  let unexpected = 0;
  const one = (i) =>
    new Promise((resolve) => {
      const req = request(
        { agent, host: '127.0.0.1', port, method: s.method, path: s.path, headers },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies[i] = performance.now() - due[i];
            answered += 1;
            if (res.statusCode !== s.expectStatus) unexpected += 1;
            resolve();
          });
        },
      );
      req.on('error', () => {
        latencies[i] = NaN;
        unexpected += 1;
        resolve();
      });
      req.end(body);
    });

  const started = performance.now();
  const inFlight = [];
  let sent = 0;
  await new Promise((done) => {
    const tick = () => {
      const now = performance.now();
      while (sent < total && started + sent * interval <= now) {
        due[sent] = started + sent * interval;
        inFlight.push(one(sent));
        sent += 1;
      }
      if (sent >= total) return done();
      setTimeout(tick, Math.max(0, started + sent * interval - performance.now()));
    };
    tick();
  });
  await Promise.all(inFlight);
  agent.destroy();
  if (process.env.BENCH_TRACE) {
    const lines = [];
    for (let i = 0; i < total; i += 1)
      if (!Number.isNaN(latencies[i]))
        lines.push(`${Math.round(performance.timeOrigin + due[i])} ${latencies[i].toFixed(2)}\n`);
    appendFileSync(process.env.BENCH_TRACE, lines.join(''));
  }
  const sorted = latencies.filter((l) => !Number.isNaN(l)).sort();
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return {
    requests: answered,
    p50: at(0.5),
    p99: at(0.99),
    max: sorted[sorted.length - 1] ?? NaN,
    unexpected,
  };
}

module.exports = { paced };

if (require.main === module)
  process.on('message', (m) => {
    paced(m.port, m.scenario, m.opts).then((result) => process.send(result));
  });
