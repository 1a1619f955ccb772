import { Transform } from 'class-transformer';
import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';

export const ISO_DATE_TIME_CONSTRAINT = 'isIsoDateTime';
export const FUTURE_DATE_CONSTRAINT = 'isFutureDate';

/**
 * An RFC 3339 date-time (ISO 8601 with a stated offset: no local time to guess) or a full date
 * (midnight UTC). Four-digit years only: the expanded `+033658-...` form is not accepted.
 */
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2})))?$/;

/**
 * The instant `value` names, or undefined unless it is a string of the form above naming a real
 * calendar day and time (Date.parse alone takes 2027-02-30 as 2 March and 24:00 as the next day).
 */
export function parseIsoDateTime(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const match = ISO_DATE_TIME.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour = 0, minute = 0, second = 0, offsetHours = 0, offsetMinutes = 0] =
    match.slice(1).map((part) => (part === undefined ? undefined : Number(part)));
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  const real =
    month! >= 1 &&
    month! <= 12 &&
    day! >= 1 &&
    day! <= daysInMonth &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetHours <= 23 &&
    offsetMinutes <= 59;
  const instant = new Date(value);
  return real && !Number.isNaN(instant.getTime()) ? instant : undefined;
}

/**
 * A date sent as an ISO 8601 string (see ISO_DATE_TIME), delivered to the handler as a Date.
 * Numbers are refused: epoch seconds and milliseconds are easy to mix up (1e15 ms is year 33658).
 * `future`: the instant must also be after the time of the request.
 */
export function IsIsoDateTime(
  rule: { future?: boolean } = {},
  options?: ValidationOptions,
): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    // Valid strings become Dates; anything else stays as sent, for the validator to refuse.
    Transform(({ value }: { value: unknown }) => parseIsoDateTime(value) ?? value, {
      toClassOnly: true,
    })(target, propertyName);
    registerDecorator({
      name: ISO_DATE_TIME_CONSTRAINT,
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: ({ property }: ValidationArguments) =>
          `${property} must be an ISO 8601 string: a date-time with an offset (2027-01-01T00:00:00Z) or a date (2027-01-01, midnight UTC)`,
        ...options,
      },
      validator: { validate: (value: unknown) => isDate(value) },
    });
    if (!rule.future) return;
    registerDecorator({
      name: FUTURE_DATE_CONSTRAINT,
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: ({ property }: ValidationArguments) => `${property} must be in the future`,
        ...options,
      },
      // A value that is not a date is the format rule's to report, once.
      validator: { validate: (value: unknown) => !isDate(value) || value.getTime() > Date.now() },
    });
  };
}

function isDate(value: unknown): value is Date {
  return value instanceof Date && !Number.isNaN(value.getTime());
}
