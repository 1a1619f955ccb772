/** The UTC calendar month of an instant: its key, first millisecond and the next month's first. */
export interface CalendarMonth {
  /** `2026-11` */
  readonly key: string;
  readonly startsAt: number;
  readonly resetsAt: number;
  /** `resetsAt` as an ISO 8601 instant (the quota's `resetsAt` field). */
  readonly resetsAtIso: string;
}

/** The month last asked for: every request of a month asks for the same one (the quota guard). */
let last: CalendarMonth | undefined;

export function calendarMonthOf(nowMs: number): CalendarMonth {
  if (last && nowMs >= last.startsAt && nowMs < last.resetsAt) return last;
  const now = new Date(nowMs);
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const resetsAt = Date.UTC(year, month + 1, 1);
  last = Object.freeze({
    key: `${year}-${String(month + 1).padStart(2, '0')}`,
    startsAt: Date.UTC(year, month, 1),
    resetsAt,
    resetsAtIso: new Date(resetsAt).toISOString(),
  });
  return last;
}
