/**
 * England and Wales bank holidays, worked out from their rules rather than kept by hand: a table
 * goes stale the first year nobody updates it. A one-off holiday proclaimed for an occasion (a
 * coronation, a jubilee's moved Monday) is not in the rules and so is not counted.
 */

const DAY_MS = 24 * 3600_000;

/** A day as 'YYYY-MM-DD'; `month` counts from 1. */
const dayKey = (year: number, month: number, day: number) =>
  `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

const keyOf = (date: Date) => date.toISOString().slice(0, 10);
const utcDay = (year: number, month: number, day: number) =>
  new Date(Date.UTC(year, month - 1, day));
const plusDays = (date: Date, days: number) => new Date(date.getTime() + days * DAY_MS);
const isWeekend = (date: Date) => date.getUTCDay() === 0 || date.getUTCDay() === 6;

/** Easter Sunday in the Gregorian calendar (the anonymous computus of Meeus, Jones and Butcher). */
export function easterSunday(year: number): Date {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return utcDay(year, month, day);
}

/** The first Monday of a month, or with `last` the last one. */
function monday(year: number, month: number, last: boolean): Date {
  if (!last) {
    const first = utcDay(year, month, 1);
    return plusDays(first, (8 - first.getUTCDay()) % 7);
  }
  const end = utcDay(year, month + 1, 0);
  return plusDays(end, -((end.getUTCDay() + 6) % 7));
}

/**
 * The year's bank holidays as 'YYYY-MM-DD', in order. A fixed day at a weekend moves to the next
 * weekday that is not already a holiday (Christmas on a Saturday: Monday 27 and Tuesday 28).
 */
export function bankHolidays(year: number): string[] {
  const easter = easterSunday(year);
  const days = [
    plusDays(easter, -2),
    plusDays(easter, 1),
    monday(year, 5, false),
    monday(year, 5, true),
    monday(year, 8, true),
  ].map(keyOf);
  const taken = new Set(days);
  for (const [month, day] of [
    [1, 1],
    [12, 25],
    [12, 26],
  ] as const) {
    let date = utcDay(year, month, day);
    while (isWeekend(date) || taken.has(keyOf(date))) date = plusDays(date, 1);
    taken.add(keyOf(date));
    days.push(keyOf(date));
  }
  return days.sort();
}

const byYear = new Map<number, ReadonlySet<string>>();

/** Whether a UK calendar day (`month` from 1) is a bank holiday in England and Wales. */
export function isBankHoliday(year: number, month: number, day: number): boolean {
  let days = byYear.get(year);
  if (!days) {
    days = new Set(bankHolidays(year));
    byYear.set(year, days);
  }
  return days.has(dayKey(year, month, day));
}
