/**
 * BENCH_STALLS=<file>: preloaded into the service (`node -r`), it appends to <file> what stalls
 * the event loop, with wall-clock timestamps (ms since the epoch) to line up with the bench's
 * windows and the request log:
 *   <ts> ELD p50= p99= max= run= wait= minflt= majflt= steal= old=
 *                             the event-loop delay of the last second (ms, 1 ms resolution); on
 *                             Linux also how long the main thread ran and how long it waited,
 *                             runnable, for a CPU (/proc schedstat), ms; the process's page faults
 *                             and the machine's steal time (ms, 10 ms ticks) in that second; and
 *                             what the old generation gained, KB (negative: a full collection)
 *   <ts> GC kind= <ms>        every GC pause over 2 ms (kind 1: scavenge, 2/4: mark-compact)
 *   <ts> SQL <fn> <ms> <sql>  every synchronous SQLite statement over 2 ms (better-sqlite3)
 * The RPC proxy adds `proxy:MISS <method> <ms>` for each read it had to forward while caching.
 * BENCH_STALLS_WHO=<name> prefixes the kinds (`client:GC`, `proxy:ELD`) when another process of
 * the bench (the load generator, the RPC proxy) loads the probe too: the summary counts the
 * service's lines only, the others are there to line up with them.
 * Plain JavaScript: it runs inside `node dist/main.js`, before anything else is loaded.
 */
'use strict';
const { appendFileSync, readFileSync } = require('node:fs');
const Module = require('node:module');
const { monitorEventLoopDelay, PerformanceObserver, performance } = require('node:perf_hooks');
const { isMainThread } = require('node:worker_threads');
const v8 = require('node:v8');

// `-r` preloads the probe into worker threads too (the SQLite checkpointer's): it watches the
// main thread, whose loop serves the requests, only.
if (isMainThread) watch();

function watch() {
  const file = process.env.BENCH_STALLS;
  const who = process.env.BENCH_STALLS_WHO ? `${process.env.BENCH_STALLS_WHO}:` : '';
  const out = (line) => appendFileSync(file, `${line}\n`);
  const ms = (ns) => (ns / 1e6).toFixed(1);
  const wall = (t) => Math.round(performance.timeOrigin + t);

  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  // The main thread's time on a CPU and waiting on a run queue, ns (Linux; absent elsewhere).
  const schedstat = `/proc/self/task/${process.pid}/schedstat`;
  const sched = () => {
    try {
      return readFileSync(schedstat, 'latin1').split(' ').slice(0, 2).map(Number);
    } catch {
      return undefined;
    }
  };
  // This process's page faults (minor, major) and the machine's steal time, ticks (Linux).
  const faults = () => {
    try {
      const fields = readFileSync('/proc/self/stat', 'latin1').split(') ')[1].split(' ');
      return [Number(fields[7]), Number(fields[9])];
    } catch {
      return undefined;
    }
  };
  const steal = () => {
    try {
      return Number(readFileSync('/proc/stat', 'latin1').split('\n')[0].trim().split(/\s+/)[8]);
    } catch {
      return undefined;
    }
  };
  // What the old generation (old, code and large-object spaces) gained since the last line, KB:
  // what scavenges promoted plus what was allocated there directly (negative across a full GC).
  const oldGen = () => {
    let used = 0;
    for (const space of v8.getHeapSpaceStatistics())
      if (!space.space_name.startsWith('new_')) used += space.space_used_size;
    return used;
  };
  let lastOld = oldGen();
  let lastSched = sched();
  let lastFaults = faults();
  let lastSteal = steal();
  setInterval(() => {
    const now = sched();
    const cpu =
      now && lastSched ? ` run=${ms(now[0] - lastSched[0])} wait=${ms(now[1] - lastSched[1])}` : '';
    lastSched = now;
    const nowFaults = faults();
    const nowSteal = steal();
    const mem =
      nowFaults && lastFaults
        ? ` minflt=${nowFaults[0] - lastFaults[0]} majflt=${nowFaults[1] - lastFaults[1]}`
        : '';
    const stolen =
      nowSteal !== undefined && lastSteal !== undefined ? ` steal=${(nowSteal - lastSteal) * 10}` : '';
    lastFaults = nowFaults;
    lastSteal = nowSteal;
    const nowOld = oldGen();
    const old = ` old=${Math.round((nowOld - lastOld) / 1024)}`;
    lastOld = nowOld;
    out(
      `${Date.now()} ${who}ELD p50=${ms(delay.percentile(50))} p99=${ms(delay.percentile(99))} max=${ms(delay.max)}${cpu}${mem}${stolen}${old}`,
    );
    delay.reset();
  }, 1000).unref();

  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.duration > 2)
        out(`${wall(e.startTime)} ${who}GC kind=${e.detail?.kind} ${e.duration.toFixed(1)}ms`);
  }).observe({ entryTypes: ['gc'] });

  const load = Module.prototype.require;
  let timed = false;
  Module.prototype.require = function require(id) {
    const loaded = load.apply(this, arguments);
    if (id === 'better-sqlite3' && !timed) {
      timed = true;
      const probe = new loaded(':memory:');
      const Statement = Object.getPrototypeOf(probe.prepare('select 1'));
      probe.close();
      for (const fn of ['run', 'all', 'get']) {
        const original = Statement[fn];
        Statement[fn] = function timedStatement() {
          const started = performance.now();
          try {
            return original.apply(this, arguments);
          } finally {
            const took = performance.now() - started;
            if (took > 2)
              out(
                `${wall(started)} ${who}SQL ${fn} ${took.toFixed(1)}ms ${this.source.slice(0, 60).replace(/\s+/g, ' ')}`,
              );
          }
        };
      }
    }
    return loaded;
  };
}
