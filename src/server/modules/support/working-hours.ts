import { isBankHoliday } from './bank-holidays';

/**
 * Support answers within office hours: Monday to Friday, 09:00 to 17:00, UK time, except bank
 * holidays in England and Wales.
 */
const ZONE = 'Europe/London';
const OPENS = 9 * 60;
const CLOSES = 17 * 60;
const STEP_MINUTES = 5;

const localParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: ZONE,
  weekday: 'short',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

function isWorkingMinute(at: Date): boolean {
  const parts = Object.fromEntries(localParts.formatToParts(at).map((p) => [p.type, p.value]));
  if (parts.weekday === 'Sat' || parts.weekday === 'Sun') return false;
  const minute = Number(parts.hour) * 60 + Number(parts.minute);
  if (minute < OPENS || minute >= CLOSES) return false;
  return !isBankHoliday(Number(parts.year), Number(parts.month), Number(parts.day));
}

/**
 * The moment `hours` working hours after `from`, counted in five-minute steps so clock changes,
 * weekends and bank holidays fall out of the local day itself.
 */
export function addWorkingHours(from: Date, hours: number): Date {
  const step = STEP_MINUTES * 60_000;
  let at = new Date(Math.ceil(from.getTime() / step) * step);
  let left = (hours * 60) / STEP_MINUTES;
  while (left > 0) {
    if (isWorkingMinute(at)) left -= 1;
    at = new Date(at.getTime() + step);
  }
  return at;
}
