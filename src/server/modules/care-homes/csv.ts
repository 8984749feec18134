/**
 * A CSV file's lines as fields (RFC 4180: commas, double-quoted fields with doubled quotes, CRLF
 * or LF), each with its line number in the file; a byte-order mark is dropped.
 */
export function parseCsv(text: string): { line: number; fields: string[] }[] {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const records: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  for (let i = 0; i < source.length; i += 1) {
    const char = source[i]!;
    if (quoted) {
      if (char === '"' && source[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') {
        quoted = false;
      } else {
        if (char === '\n') line += 1;
        field += char;
      }
    } else if (char === '"' && field === '') {
      quoted = true;
    } else if (char === ',') {
      fields.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[i + 1] === '\n') i += 1;
      fields.push(field);
      records.push({ line: recordLine, fields });
      fields = [];
      field = '';
      line += 1;
      recordLine = line;
    } else {
      field += char;
    }
  }
  if (field !== '' || fields.length > 0) {
    fields.push(field);
    records.push({ line: recordLine, fields });
  }
  // Lines with nothing in them (a blank line, a trailing comma row) are not residents.
  return records.filter((record) => record.fields.some((value) => value.trim() !== ''));
}

/** What a spreadsheet would read as a formula (or a formula's start) at the front of a cell. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** What makes a field need quotes under RFC 4180. */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * A CSV file for spreadsheets: a byte-order mark so Excel reads UTF-8 names right, CRLF lines,
 * RFC 4180 quoting, and a single quote before a cell that would otherwise start a formula.
 */
export function formatCsv(rows: readonly (readonly string[])[]): string {
  const cell = (value: string) => {
    const safe = FORMULA_START.test(value) ? `'${value}` : value;
    return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  return `\uFEFF${rows.map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}
