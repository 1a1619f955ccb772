/**
 * `npm run bench:idle-gap`: what this machine charges for the same work at a lower duty cycle,
 * with no server, client or socket involved. One unit of JavaScript (JSON round trips of a
 * 200-row object, ~0.6 ms of CPU on a fast vCPU) runs in 10 ms bursts separated by sleeps, so
 * the process is busy 100, 75, 50 or 25 % of the time; the figure is the CPU the process used per
 * unit (user + system, median). Rounds alternate the duty cycles, so the VM's drift over minutes
 * falls on all of them.
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

const DUTIES = [1, 0.75, 0.5, 0.25];
const BURST_MS = 10;
const SECONDS_PER_CELL = Number(process.env.BENCH_CELL_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const DRIFT_SECONDS = Number(process.env.BENCH_DRIFT_SECONDS ?? 30);
const SLOW = 1.4;

const doc = {
  rows: Array.from({ length: 200 }, (_, i) => ({
    id: i,
    name: `row ${i}`,
    v: [i, i * 2, `v${i}`],
  })),
};
function unit(): number {
  let n = 0;
  for (let k = 0; k < 6; k += 1) n += (JSON.parse(JSON.stringify(doc)) as typeof doc).rows.length;
  return n;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Units back to back for `ms` of wall time; pushes each one's CPU µs. */
function burst(ms: number, costs: number[]): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    const before = process.cpuUsage();
    unit();
    const used = process.cpuUsage(before);
    costs.push(used.user + used.system);
  }
}

/** Median CPU µs per unit over `seconds` of bursts at `duty` (busy share of wall time). */
async function atDuty(duty: number, seconds: number): Promise<number> {
  const costs: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    burst(BURST_MS, costs);
    if (duty < 1) await sleep((BURST_MS * (1 - duty)) / duty);
  }
  return median(costs);
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
  for (let i = 0; i < 2000; i += 1) unit(); // optimised before anything is timed
  const cells = new Map<number, number[]>(DUTIES.map((d) => [d, []]));
  for (let r = 0; r < ROUNDS; r += 1)
    for (const duty of DUTIES) cells.get(duty)?.push(await atDuty(duty, SECONDS_PER_CELL));
  const full = median(cells.get(1) ?? []);
  const lines = [
    `machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}; ${BURST_MS} ms bursts, ${ROUNDS} rounds of ${SECONDS_PER_CELL} s per duty cycle (median of the rounds; range in brackets)`,
    '',
    '| busy share of wall time | CPU µs per unit | vs always busy |',
    '|---|---|---|',
    ...DUTIES.map((duty) => {
      const xs = cells.get(duty) ?? [];
      const m = median(xs);
      return `| ${duty * 100} % | ${m} (${Math.min(...xs)}-${Math.max(...xs)}) | ${(m / full).toFixed(2)} |`;
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
      `| ${usual} | ${slow.length} of ${halves.length} | ${slow.length ? median(slow) : '-'} | ${(longest / 2).toFixed(1)} s |`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
