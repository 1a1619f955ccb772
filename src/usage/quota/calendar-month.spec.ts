import { calendarMonthOf } from './calendar-month';

describe('calendarMonthOf', () => {
  it('gives the UTC month of an instant, at both edges', () => {
    const first = Date.UTC(2026, 10, 1);
    const next = Date.UTC(2026, 11, 1);
    for (const at of [first, first + 1, next - 1])
      expect(calendarMonthOf(at)).toEqual({
        key: '2026-11',
        startsAt: first,
        resetsAt: next,
        resetsAtIso: '2026-12-01T00:00:00.000Z',
      });
    expect(calendarMonthOf(next).key).toBe('2026-12');
    expect(calendarMonthOf(Date.UTC(2026, 11, 31, 23, 59)).resetsAtIso).toBe(
      '2027-01-01T00:00:00.000Z',
    );
  });

  it('answers the month it answered last while the instant stays in it, in either direction', () => {
    const november = calendarMonthOf(Date.UTC(2026, 10, 15));
    expect(calendarMonthOf(Date.UTC(2026, 10, 20))).toBe(november);
    const october = calendarMonthOf(Date.UTC(2026, 9, 31, 23));
    expect(october.key).toBe('2026-10');
    expect(calendarMonthOf(Date.UTC(2026, 10, 2)).key).toBe('2026-11');
    expect(Object.isFrozen(october)).toBe(true);
  });
});
