import { parseRetrySchedule } from '../../config/webhooks.config';
import { nextRetryAt } from './retry-policy';

describe('nextRetryAt', () => {
  const schedule = parseRetrySchedule('5s,5m,30m,2h,5h,10h,10h')!;

  it('the default schedule makes 8 attempts over about 24 hours', () => {
    expect(schedule).toHaveLength(7);
    const total = schedule.reduce((sum, delay) => sum + delay, 0);
    expect(total / 3_600_000).toBeCloseTo(27.6, 0);
  });

  it('waits the delay of the attempt just made, with +-20 % jitter', () => {
    expect(nextRetryAt(1, schedule, 0, () => 0.5)).toBe(5_000);
    expect(nextRetryAt(1, schedule, 0, () => 0)).toBe(4_000);
    expect(nextRetryAt(1, schedule, 0, () => 1)).toBe(6_000);
    expect(nextRetryAt(2, schedule, 1_000, () => 0.5)).toBe(1_000 + 300_000);
  });

  it('answers undefined once the schedule is used up', () => {
    expect(nextRetryAt(7, schedule, 0, () => 0.5)).toBe(36_000_000);
    expect(nextRetryAt(8, schedule, 0)).toBeUndefined();
  });

  it('parses units and refuses anything else', () => {
    expect(parseRetrySchedule('50ms, 1s,2m,1h,1d')).toEqual([
      50, 1_000, 120_000, 3_600_000, 86_400_000,
    ]);
    expect(parseRetrySchedule('5 s')).toBeUndefined();
    expect(parseRetrySchedule('')).toBeUndefined();
    expect(parseRetrySchedule('1x')).toBeUndefined();
  });
});
