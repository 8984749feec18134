import { describe, expect, it } from 'vitest';
import { formatClockTime, formatShortDate } from '@web/lib/date-format';

// The audit log writes its times without Intl; what it writes must read exactly as British
// English's own medium date and time would, in the same time zone.
const britishDate = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });
const britishTime = new Intl.DateTimeFormat('en-GB', { timeStyle: 'medium' });

describe('dates written without Intl', () => {
  it('match en-GB medium dates and times across every month, both clock halves and midnight', () => {
    const moments = [
      new Date(2026, 0, 1, 0, 0, 0),
      new Date(2026, 10, 28, 9, 58, 12),
      new Date(2027, 11, 31, 23, 59, 59),
      new Date(2024, 1, 29, 12, 5, 7),
    ];
    for (let month = 0; month < 12; month += 1) moments.push(new Date(2030, month, 9, 13, 7, 3));
    for (const moment of moments) {
      expect(formatShortDate(moment)).toBe(britishDate.format(moment));
      expect(formatClockTime(moment)).toBe(britishTime.format(moment));
    }
  });

  it('reads the day in the viewer’s own time zone, as Intl does', () => {
    const moment = new Date('2026-11-28T23:30:00Z');
    expect(formatShortDate(moment)).toBe(britishDate.format(moment));
    expect(formatClockTime(moment)).toBe(britishTime.format(moment));
  });
});
