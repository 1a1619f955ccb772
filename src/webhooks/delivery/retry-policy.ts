/**
 * When the next attempt of a failed delivery is due: the schedule's delay for this attempt, with
 * +-20 % jitter so endpoints that failed together do not retry in lockstep. undefined when the
 * schedule is used up (the delivery is then failed).
 */
export function nextRetryAt(
  attemptsMade: number,
  scheduleMs: readonly number[],
  nowMs: number,
  random: () => number = Math.random,
): number | undefined {
  const delay = scheduleMs[attemptsMade - 1];
  if (delay === undefined) return undefined;
  return nowMs + Math.round(delay * (0.8 + 0.4 * random()));
}
