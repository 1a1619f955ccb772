import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { flattenValidationErrors } from './validation-exception.factory';
import { IsIsoDateTime, parseIsoDateTime } from './is-iso-date-time';

class ExpiryDto {
  @IsIsoDateTime({ future: true })
  expiresAt: Date;
}

describe('parseIsoDateTime', () => {
  it.each([
    ['2027-01-01T00:00:00Z', '2027-01-01T00:00:00.000Z'],
    ['2027-01-01T00:00:00.123Z', '2027-01-01T00:00:00.123Z'],
    ['2027-01-01T00:00Z', '2027-01-01T00:00:00.000Z'],
    ['2027-01-01T01:00:00+01:00', '2027-01-01T00:00:00.000Z'],
    ['2026-12-31T18:30:00-05:30', '2027-01-01T00:00:00.000Z'],
    ['2027-01-01', '2027-01-01T00:00:00.000Z'],
    ['2028-02-29T23:59:59Z', '2028-02-29T23:59:59.000Z'],
  ])('%p is %p', (text, iso) => {
    expect(parseIsoDateTime(text)?.toISOString()).toBe(iso);
  });

  it.each([
    1e15, // epoch milliseconds: year 33658
    1798761600,
    '1798761600000',
    '+033658-09-27T01:46:40Z', // expanded year
    '2027-01-01T00:00:00', // no offset: whose local time?
    '2027-02-30T00:00:00Z', // Date.parse: 2 March
    '2027-02-29',
    '2027-13-01T00:00:00Z',
    '2027-01-01T24:00:00Z', // Date.parse: the next day
    '2027-01-01T23:60:00Z',
    '2027-01-01T23:59:60Z',
    '2027-01-01T00:00:00+24:00',
    '2027-01-01 00:00:00Z',
    'tomorrow',
    'Jan 1 2027',
    '',
    null,
    {},
  ])('refuses %p', (value) => {
    expect(parseIsoDateTime(value)).toBeUndefined();
  });
});

describe('IsIsoDateTime', () => {
  const check = async (expiresAt: unknown) => {
    const dto = plainToInstance(ExpiryDto, { expiresAt });
    return { dto, details: flattenValidationErrors(await validate(dto)) };
  };

  it('turns a valid future string into a Date', async () => {
    const { dto, details } = await check('2999-01-01T00:00:00Z');
    expect(details).toEqual([]);
    expect(dto.expiresAt).toEqual(new Date('2999-01-01T00:00:00Z'));
  });

  it('refuses numbers and malformed strings once, with the expected form', async () => {
    for (const value of [1e15, '1e15', 'Jan 1 2999']) {
      const { details } = await check(value);
      expect(details).toEqual([
        {
          field: 'expiresAt',
          constraint: 'isIsoDateTime',
          message: expect.stringContaining('expiresAt must be an ISO 8601 string'),
        },
      ]);
    }
  });

  it('refuses the past when asked for the future', async () => {
    const { details } = await check('2001-01-01T00:00:00Z');
    expect(details).toEqual([
      {
        field: 'expiresAt',
        constraint: 'isFutureDate',
        message: 'expiresAt must be in the future',
      },
    ]);
  });
});
