import { RecentCounts } from './recent-counts';

describe(RecentCounts.name, () => {
  it('counts requests and errors over the last 60 seconds only', () => {
    const counts = new RecentCounts();
    const t0 = 1_700_000_000_000;
    counts.record(true, t0);
    counts.record(false, t0 + 500);
    counts.record(false, t0 + 30_000);
    expect(counts.totals(t0 + 30_000)).toEqual({ requests: 3, errors: 1 });
    // The first second has left the window; its slot is reused by a later second.
    expect(counts.totals(t0 + 60_000)).toEqual({ requests: 1, errors: 0 });
    counts.record(true, t0 + 60_000);
    expect(counts.totals(t0 + 60_000)).toEqual({ requests: 2, errors: 1 });
    expect(counts.totals(t0 + 200_000)).toEqual({ requests: 0, errors: 0 });
  });
});
