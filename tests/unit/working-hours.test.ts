import { describe, expect, it } from 'vitest';
import {
  bankHolidays,
  easterSunday,
  isBankHoliday,
} from '../../src/server/modules/support/bank-holidays';
import { addWorkingHours } from '../../src/server/modules/support/working-hours';

// Support's reply targets count working hours: Monday to Friday, 9 to 5 UK time, and not on the
// bank holidays of England and Wales, which come from their rules (as gov.uk lists them).

describe('bank holidays in England and Wales', () => {
  it('are the eight of 2026, Boxing Day on a Saturday moved to Monday 28', () => {
    expect(bankHolidays(2026)).toEqual([
      '2026-01-01',
      '2026-04-03',
      '2026-04-06',
      '2026-05-04',
      '2026-05-25',
      '2026-08-31',
      '2026-12-25',
      '2026-12-28',
    ]);
  });

  it('are the eight of 2027, Christmas on a Saturday moved to Monday 27 and Boxing Day to Tuesday 28', () => {
    expect(bankHolidays(2027)).toEqual([
      '2027-01-01',
      '2027-03-26',
      '2027-03-29',
      '2027-05-03',
      '2027-05-31',
      '2027-08-30',
      '2027-12-27',
      '2027-12-28',
    ]);
    expect(isBankHoliday(2027, 12, 25)).toBe(false);
    expect(isBankHoliday(2027, 12, 27)).toBe(true);
  });

  it('move New Year’s Day at a weekend to the Monday, and Christmas on a Sunday to Tuesday', () => {
    // 1 January 2028 is a Saturday; 25 December 2022 was a Sunday.
    expect(bankHolidays(2028)[0]).toBe('2028-01-03');
    expect(bankHolidays(2022).filter((day) => day.startsWith('2022-12'))).toEqual([
      '2022-12-26',
      '2022-12-27',
    ]);
  });

  it('take Easter from the computus, in March or April', () => {
    expect(
      [2024, 2025, 2026, 2027, 2038, 2285].map((year) => easterSunday(year).toISOString()),
    ).toEqual([
      '2024-03-31T00:00:00.000Z',
      '2025-04-20T00:00:00.000Z',
      '2026-04-05T00:00:00.000Z',
      '2027-03-28T00:00:00.000Z',
      '2038-04-25T00:00:00.000Z',
      '2285-03-22T00:00:00.000Z',
    ]);
  });
});

describe('working hours', () => {
  it('roll a request made on the Thursday before Easter over the long weekend', () => {
    // Thursday 2 April 2026, 16:00 in London (BST): an hour that day, then Good Friday, the
    // weekend and Easter Monday are skipped; Tuesday 7 April from 09:00.
    const thursday = new Date('2026-04-02T15:00:00Z');
    expect(addWorkingHours(thursday, 4).toISOString()).toBe('2026-04-07T11:00:00.000Z');
    expect(addWorkingHours(thursday, 8).toISOString()).toBe('2026-04-07T15:00:00.000Z');
  });

  it('skip Christmas 2027’s substitute days', () => {
    // Friday 24 December 2027, 16:00 GMT: Monday 27 and Tuesday 28 are holidays.
    expect(addWorkingHours(new Date('2027-12-24T16:00:00Z'), 4).toISOString()).toBe(
      '2027-12-29T12:00:00.000Z',
    );
  });

  it('still count an ordinary week as before', () => {
    // Friday 16:00 + 4 working hours = Monday 12:00.
    expect(addWorkingHours(new Date('2026-12-04T16:00:00Z'), 4).toISOString()).toBe(
      '2026-12-07T12:00:00.000Z',
    );
  });
});
