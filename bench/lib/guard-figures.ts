/**
 * The build-cost guard's figures and verdicts (`npm run bench:guard`, bench/build-cost.md): three
 * ratios measured in one run, so the machine's speed cancels out, each against its figure recorded
 * on the machine CI runs on (bench/build-cost.json).
 */

/** How much dearer than its recorded figure the guard lets each ratio be. */
export const GUARD_TOLERANCE = 1.25;

export interface GuardRatios {
  /** The swap build's CPU per request over the bare NestJS hello's run just before it (median of rounds). */
  swapOverBare: number;
  /**
   * The swap build's CPU per request over the protected no-chain request's (GET
   * /api/v1/defi/config: framework, auth, limits, usage) in the same round, embedded stack: what
   * the build adds over the request floor (median of rounds).
   */
  swapOverConfig: number;
  /**
   * The swap build's CPU per request on PostgreSQL + Redis over the same build on SQLite + memory
   * in the same round (median of rounds).
   */
  productionOverEmbedded: number;
}

export interface RecordedFigures extends Partial<GuardRatios> {
  commit: string;
  date: string;
  /** The 1-minute load average when recorded. */
  loadAverage?: number;
  note: string;
}

export interface GuardVerdict {
  name: keyof GuardRatios;
  measured: number;
  recorded: number | undefined;
  limit: number;
  ok: boolean;
}

export const GUARDED: ReadonlyArray<keyof GuardRatios> = [
  'swapOverBare',
  'swapOverConfig',
  'productionOverEmbedded',
];

/**
 * Each guarded ratio against its recorded figure x GUARD_TOLERANCE. A ratio with no recorded
 * figure (a file from before it was guarded), or one that could not be measured, fails: the
 * guard never passes by not looking.
 */
export function guardVerdicts(measured: GuardRatios, recorded: RecordedFigures): GuardVerdict[] {
  return GUARDED.map((name) => {
    const figure = recorded[name];
    const limit = figure === undefined ? NaN : figure * GUARD_TOLERANCE;
    const value = measured[name];
    return {
      name,
      measured: value,
      recorded: figure,
      limit,
      ok: Number.isFinite(value) && Number.isFinite(limit) && value <= limit,
    };
  });
}

/** Round by round, a's figure over b's (rounds where either is missing are left out). */
export function roundRatios(a: number[], b: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i += 1)
    if (b[i] > 0 && Number.isFinite(a[i])) out.push(a[i] / b[i]);
  return out;
}

/**
 * A ratio the guard fails: over its limit in the first run AND in the confirming run that the
 * first run's regression triggers. One run's median can still sit past +25 % on a machine whose
 * load changed during its two minutes (measured: swapOverConfig 6.67x then 5.3x, the same commit,
 * bench/request-cost.md "The guard"); a real regression is past the limit in both runs.
 */
export function confirmedRegressions(
  firstRun: ReadonlyArray<keyof GuardRatios>,
  secondRun: GuardVerdict[],
): Array<keyof GuardRatios> {
  return secondRun.filter((v) => !v.ok && firstRun.includes(v.name)).map((v) => v.name);
}

/** The names of GUARDED in a comma-separated list (the confirming run's environment). */
export function guardedNames(list: string): Array<keyof GuardRatios> {
  return list
    .split(',')
    .filter((name): name is keyof GuardRatios => (GUARDED as readonly string[]).includes(name));
}
