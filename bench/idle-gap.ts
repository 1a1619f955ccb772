/**
 * `npm run bench:idle-gap`: what this machine charges for the same work at a lower duty cycle,
 * with no server, client or socket involved. A fixed unit of JavaScript (6 JSON round trips of a
 * 200-row object, lib/json-unit.cjs) runs in 10 ms bursts separated by sleeps sized for a target
 * busy share of 100, 75, 50 or 25 % of the wall time; the table prints the share each cell really
 * had (timers fire late) and the CPU the process used per unit (user + system, median). Each
 * round runs every duty cycle, in an order rotated by one per round, so the VM's drift over
 * minutes falls on all of them.
 *
 * Why it is here: the service's CPU per request is higher at half of max throughput than at
 * saturation (the bench's `CPU ms/req @ half max`), and with it the share of the main thread a
 * "half" load takes; this isolates how much of that the machine charges any work that runs at
 * that duty cycle (bench/README.md, "Eighth session").
 *
 * The second table is the drift itself: the unit runs without a pause for BENCH_DRIFT_SECONDS
 * (30), timed per half-second; it counts the half-seconds over 1.4x the median and the longest
 * stretch of them. Nothing else of the bench runs meanwhile, so what it shows is the host's.
 */
import { cpus } from 'node:os';
import { median } from './lib/median';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { jsonUnits } = require('./lib/json-unit.cjs') as { jsonUnits(n: number): number };

const DUTIES = [1, 0.75, 0.5, 0.25];
const BURST_MS = 10;
const UNITS = 6;
const SECONDS_PER_CELL = Number(process.env.BENCH_CELL_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DRIFT_SECONDS = Number(process.env.BENCH_DRIFT_SECONDS ?? 30);
const SLOW = 1.4;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Units back to back for `ms` of wall time; pushes each one's CPU µs. */
function burst(ms: number, costs: number[]): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    const before = process.cpuUsage();
    jsonUnits(UNITS);
    const used = process.cpuUsage(before);
    costs.push(used.user + used.system);
  }
}

/** `seconds` of bursts aiming at `duty`: median CPU µs per unit and the busy share it really had. */
async function atDuty(duty: number, seconds: number): Promise<{ us: number; busy: number }> {
  const costs: number[] = [];
  let busy = 0;
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    const t = performance.now();
    burst(BURST_MS, costs);
    busy += performance.now() - t;
    if (duty < 1) await sleep((BURST_MS * (1 - duty)) / duty);
  }
  return { us: median(costs), busy: busy / (performance.now() - started) };
}

/** Median CPU µs per unit in each half-second of `seconds` of units without a pause. */
function drift(seconds: number): number[] {
  const halves: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const costs: number[] = [];
    burst(500, costs);
    halves.push(median(costs));
  }
  return halves;
}

async function main(): Promise<void> {
  for (let i = 0; i < 500; i += 1) jsonUnits(UNITS); // optimised before anything is timed
  const cells = new Map<number, Array<{ us: number; busy: number }>>(DUTIES.map((d) => [d, []]));
  for (let r = 0; r < ROUNDS; r += 1)
    for (let i = 0; i < DUTIES.length; i += 1) {
      const duty = DUTIES[(i + r) % DUTIES.length];
      cells.get(duty)?.push(await atDuty(duty, SECONDS_PER_CELL));
    }
  const full = median((cells.get(1) ?? []).map((c) => c.us));
  const lines = [
    `machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}; ${BURST_MS} ms bursts, ${ROUNDS} rounds of ${SECONDS_PER_CELL} s per duty cycle (median of the rounds; range in brackets)`,
    '',
    '| busy share of wall time: aimed at (measured) | CPU µs per unit | vs always busy |',
    '|---|---|---|',
    ...DUTIES.map((duty) => {
      const xs = (cells.get(duty) ?? []).map((c) => c.us);
      const busy = median((cells.get(duty) ?? []).map((c) => c.busy));
      const m = median(xs);
      return `| ${duty * 100} % (${(busy * 100).toFixed(0)} %) | ${m.toFixed(0)} (${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)}) | ${(m / full).toFixed(2)} |`;
    }),
  ];
  if (DRIFT_SECONDS > 0) {
    const halves = drift(DRIFT_SECONDS);
    const usual = median(halves);
    let longest = 0;
    let stretch = 0;
    for (const h of halves) {
      stretch = h > SLOW * usual ? stretch + 1 : 0;
      longest = Math.max(longest, stretch);
    }
    const slow = halves.filter((h) => h > SLOW * usual);
    lines.push(
      '',
      `the unit without pauses for ${DRIFT_SECONDS} s, timed per half-second:`,
      '',
      `| median CPU µs per unit | half-seconds over ${SLOW}x that | their median µs per unit | longest stretch of them |`,
      '|---|---|---|---|',
      `| ${usual.toFixed(0)} | ${slow.length} of ${halves.length} | ${slow.length ? median(slow).toFixed(0) : '-'} | ${(longest / 2).toFixed(1)} s |`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
