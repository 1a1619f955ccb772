/** The UTC calendar month of an instant: its key, first millisecond and the next month's first. */
export interface CalendarMonth {
  /** `2026-11` */
  key: string;
  startsAt: number;
  resetsAt: number;
}

export function calendarMonthOf(nowMs: number): CalendarMonth {
  const now = new Date(nowMs);
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return {
    key: `${year}-${String(month + 1).padStart(2, '0')}`,
    startsAt: Date.UTC(year, month, 1),
    resetsAt: Date.UTC(year, month + 1, 1),
  };
}
