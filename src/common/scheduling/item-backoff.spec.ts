import { ItemBackoff } from './item-backoff';

describe('ItemBackoff', () => {
  it('spaces the retries of a failing item (base, 2x base, ... up to max) and forgets it on success', () => {
    const backoff = new ItemBackoff(1_000, 3_000);
    expect(backoff.ready('a', 0)).toBe(true);
    expect(backoff.failed('a', 0)).toBe(1);
    expect(backoff.ready('a', 999)).toBe(false);
    expect(backoff.ready('b', 999)).toBe(true);
    expect(backoff.waiting(999)).toEqual(['a']);
    expect(backoff.ready('a', 1_000)).toBe(true);
    expect(backoff.failed('a', 1_000)).toBe(2);
    expect(backoff.ready('a', 2_999)).toBe(false);
    expect(backoff.failed('a', 3_000)).toBe(3);
    expect(backoff.ready('a', 5_999)).toBe(false); // capped at 3 s, not 4 s
    expect(backoff.ready('a', 6_000)).toBe(true);
    backoff.succeeded('a');
    expect(backoff.waiting(0)).toEqual([]);
  });

  it('remembers at most maxItems, forgetting the oldest', () => {
    const backoff = new ItemBackoff(1_000, 1_000, 2);
    backoff.failed('a', 0);
    backoff.failed('b', 0);
    backoff.failed('c', 0);
    expect(backoff.waiting(0).sort()).toEqual(['b', 'c']);
  });
});
