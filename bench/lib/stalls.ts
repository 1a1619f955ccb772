import { readFileSync } from 'node:fs';

/** What stalled the service's event loop during one window (see stall-probe.cjs). */
export interface Stalls {
  /** The worst per-second event-loop delay p99 and max in the window, ms. */
  delayP99: number;
  delayMax: number;
  /** How long the main thread waited, runnable, for a CPU (Linux), ms; NaN where unknown. */
  cpuWaitMs: number;
  /** GC pauses over 2 ms: count, the sum and the longest, ms. */
  gcPauses: number;
  gcMs: number;
  gcMax: number;
  /** Synchronous SQLite statements over 2 ms: count and the longest, ms. */
  sqlStalls: number;
  sqlMax: number;
  /** GC pauses over 2 ms of the paced client (`client:GC`, its own process): count, longest. */
  clientGcPauses: number;
  clientGcMax: number;
  /**
   * What the old generation gained per second, KB, averaged over the window's seconds without a
   * full collection (those lose what it freed); NaN where the probe logged none. Divided by the
   * request rate: old-generation bytes per request, which set how often a full collection comes.
   */
  oldGrowthKbPerSecond: number;
  /** Seconds of the window whose old generation shrank: a full collection ran (any pause length). */
  oldShrankSeconds: number;
}

/** Reads the probe's file and sums up the lines stamped inside [from, to] (ms since the epoch). */
export function stallsIn(file: string, [from, to]: [number, number]): Stalls {
  const stalls: Stalls = {
    delayP99: 0,
    delayMax: 0,
    cpuWaitMs: NaN,
    gcPauses: 0,
    gcMs: 0,
    gcMax: 0,
    sqlStalls: 0,
    sqlMax: 0,
    clientGcPauses: 0,
    clientGcMax: 0,
    oldGrowthKbPerSecond: NaN,
    oldShrankSeconds: 0,
  };
  const growth: number[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [stamp, kind] = line.split(' ', 2);
    const at = Number(stamp);
    // A delay line covers the second before its stamp.
    if (!(at >= from && at <= to + (kind === 'ELD' ? 1000 : 0))) continue;
    if (kind === 'ELD') {
      const [, p99, max] = /p99=([\d.]+) max=([\d.]+)/.exec(line) ?? [];
      stalls.delayP99 = Math.max(stalls.delayP99, Number(p99));
      stalls.delayMax = Math.max(stalls.delayMax, Number(max));
      const wait = / wait=([\d.]+)/.exec(line)?.[1];
      if (wait !== undefined) stalls.cpuWaitMs = (stalls.cpuWaitMs || 0) + Number(wait);
      // The first second of the window also holds what the run before it left.
      const old = / old=(-?\d+)/.exec(line)?.[1];
      if (old !== undefined && at > from + 1000) {
        if (Number(old) < 0) stalls.oldShrankSeconds += 1;
        else growth.push(Number(old));
      }
    } else if (kind === 'client:GC') {
      stalls.clientGcPauses += 1;
      stalls.clientGcMax = Math.max(stalls.clientGcMax, Number(/ ([\d.]+)ms/.exec(line)?.[1]));
    } else if (kind === 'GC' || kind === 'SQL') {
      const took = Number(/ ([\d.]+)ms/.exec(line)?.[1]);
      if (kind === 'GC') {
        stalls.gcPauses += 1;
        stalls.gcMs += took;
        stalls.gcMax = Math.max(stalls.gcMax, took);
      } else {
        stalls.sqlStalls += 1;
        stalls.sqlMax = Math.max(stalls.sqlMax, took);
      }
    }
  }
  if (growth.length > 0)
    stalls.oldGrowthKbPerSecond = growth.reduce((sum, kb) => sum + kb, 0) / growth.length;
  return stalls;
}
