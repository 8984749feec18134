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
