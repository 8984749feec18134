/**
 * A date format made on its first use. The first Intl formatter a page makes loads the browser's
 * locale data, tens of milliseconds on a slow tablet, so a module that only might show a date does
 * not pay for it while its page starts.
 */
export function lazyDateFormat(
  locales: string | undefined,
  options: Intl.DateTimeFormatOptions,
): { format: (date: Date | number) => string } {
  let formatter: Intl.DateTimeFormat | null = null;
  return {
    format: (date) => (formatter ??= new Intl.DateTimeFormat(locales, options)).format(date),
  };
}

const SHORT_MONTHS = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sept',
  'Oct',
  'Nov',
  'Dec',
] as const;

const twoDigits = (value: number) => String(value).padStart(2, '0');

/**
 * A day as '28 Nov 2026' in the viewer's time zone, as British English writes it, without Intl: a
 * page that shows dates as it opens would otherwise pay for the browser's locale data (a task of
 * tens of milliseconds, one a slow tablet cannot answer a tap during) before it can show them.
 */
export function formatShortDate(date: Date): string {
  return `${date.getDate()} ${SHORT_MONTHS[date.getMonth()]} ${date.getFullYear()}`;
}

/** A time of day as '09:58:12' (24-hour clock) in the viewer's time zone, without Intl. */
export function formatClockTime(date: Date): string {
  return `${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}:${twoDigits(date.getSeconds())}`;
}
