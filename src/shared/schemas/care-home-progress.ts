import { CONSENT_LABELS, type TResidentProgress, type TResidentStatus } from './care-homes';

// The progress table's words, shared by the page and its spreadsheet so the two always agree.

/** GET: the progress table as a spreadsheet (CSV) file. */
export const PROGRESS_EXPORT_PATH = '/api/care-home/residents/export';

export const RESIDENT_STATUS_WORDS: Record<TResidentStatus, string> = {
  active: 'Living here',
  left: 'Left',
  died: 'Died',
};

export const consentWords = (resident: TResidentProgress) =>
  resident.consentBasis ? CONSENT_LABELS[resident.consentBasis] : 'No consent recorded';

export const roomWords = (resident: TResidentProgress) => resident.room || '—';

export const familyWords = (resident: TResidentProgress) =>
  `${resident.family.joined} of ${resident.family.total}`;

export const needsHelpWords = (resident: TResidentProgress) =>
  resident.needsHelp.length > 0 ? resident.needsHelp.join('; ') : 'No';

/** Whether the stations offer the resident: one who left or died is never offered. */
export function stationsWords(resident: TResidentProgress): string {
  if (resident.status !== 'active') return 'Not offered';
  if (resident.paused) return 'Paused';
  return resident.consentBasis ? 'Offered' : 'Not offered';
}

/** 'Living here', or 'Left on 3 Dec 2026' with the day written by `formatDay`. */
export function statusWords(resident: TResidentProgress, formatDay: (date: Date) => string) {
  const words = RESIDENT_STATUS_WORDS[resident.status];
  if (resident.status === 'active' || !resident.statusChangedAt) return words;
  return `${words} on ${formatDay(new Date(resident.statusChangedAt))}`;
}

/** The spreadsheet's columns: the table's, with the two lines of a cell in columns of their own. */
export const PROGRESS_CSV_HEADINGS = [
  'Resident',
  'Consent',
  'Room',
  'Next of kin',
  'Next of kin’s email (partly hidden)',
  'Family joined',
  'Messages recorded',
  'Messages sent',
  'Last session',
  'Needs help',
  'At the stations',
  'Status',
] as const;

/** One resident's line of the spreadsheet, in the table's words; days written by `formatDay`. */
export function progressCsvRow(
  resident: TResidentProgress,
  formatDay: (date: Date) => string,
): string[] {
  return [
    `${resident.firstName} ${resident.lastName}`,
    consentWords(resident),
    roomWords(resident),
    resident.nextOfKin?.name ?? 'Missing',
    resident.nextOfKin?.maskedEmail ?? '',
    familyWords(resident),
    String(resident.messages.recorded),
    String(resident.messages.sent),
    resident.lastSessionAt ? formatDay(new Date(resident.lastSessionAt)) : 'Not yet',
    needsHelpWords(resident),
    stationsWords(resident),
    statusWords(resident, formatDay),
  ];
}

/** The table's columns, in order: each heading is a button that sorts by it. */
export const PROGRESS_COLUMNS = [
  { key: 'resident', heading: 'Resident' },
  { key: 'room', heading: 'Room' },
  { key: 'nextOfKin', heading: 'Next of kin' },
  { key: 'family', heading: 'Family joined' },
  { key: 'recorded', heading: 'Messages recorded' },
  { key: 'sent', heading: 'Messages sent' },
  { key: 'lastSession', heading: 'Last session' },
  { key: 'needsHelp', heading: 'Needs help' },
  { key: 'stations', heading: 'At the stations' },
  { key: 'status', heading: 'Status' },
] as const;

export type TProgressSortKey = (typeof PROGRESS_COLUMNS)[number]['key'];
export type TSortDirection = 'ascending' | 'descending';
export interface TProgressSort {
  key: TProgressSortKey;
  direction: TSortDirection;
}

/** The table's own order, and the spreadsheet's: by last name, then first name. */
export const DEFAULT_PROGRESS_SORT: TProgressSort = { key: 'resident', direction: 'ascending' };

// Locale-aware, so 'de Souza' sits among the Ds and 'Zoë' among the Zs; rooms 3 before 12.
const collator = new Intl.Collator('en-GB', { numeric: true });

const STATIONS_RANK: Record<string, number> = { Offered: 0, Paused: 1, 'Not offered': 2 };
const STATUS_RANK: Record<TResidentProgress['status'], number> = { active: 0, left: 1, died: 2 };
/** Earlier first; no date at all before any date. */
const compareTimes = (a: string | null, b: string | null) =>
  Number(a !== null) - Number(b !== null) || (a && b ? Date.parse(a) - Date.parse(b) : 0);

const byName = (a: TResidentProgress, b: TResidentProgress) =>
  collator.compare(a.lastName, b.lastName) ||
  collator.compare(a.firstName, b.firstName) ||
  a.id - b.id;

/** Each column's order from its first press: dates as dates, counts as numbers. */
const COMPARE: Record<TProgressSortKey, (a: TResidentProgress, b: TResidentProgress) => number> = {
  resident: byName,
  // A resident with no room goes after those with one.
  room: (a, b) => Number(!a.room) - Number(!b.room) || collator.compare(a.room, b.room),
  nextOfKin: (a, b) =>
    Number(Boolean(a.nextOfKin)) - Number(Boolean(b.nextOfKin)) ||
    collator.compare(a.nextOfKin?.name ?? '', b.nextOfKin?.name ?? ''),
  family: (a, b) => a.family.joined - b.family.joined || a.family.total - b.family.total,
  recorded: (a, b) => a.messages.recorded - b.messages.recorded,
  sent: (a, b) => a.messages.sent - b.messages.sent,
  // 'Not yet' is the longest ago of all.
  lastSession: (a, b) => compareTimes(a.lastSessionAt, b.lastSessionAt),
  needsHelp: (a, b) => a.needsHelp.length - b.needsHelp.length,
  stations: (a, b) => STATIONS_RANK[stationsWords(a)]! - STATIONS_RANK[stationsWords(b)]!,
  status: (a, b) =>
    STATUS_RANK[a.status] - STATUS_RANK[b.status] ||
    compareTimes(a.statusChangedAt, b.statusChangedAt),
};

/** The direction a column's first press sorts in: most help needed first, the rest ascending. */
export const firstDirection = (key: TProgressSortKey): TSortDirection =>
  key === 'needsHelp' ? 'descending' : 'ascending';

/** The rows in this order; ties keep the table's own order (by name). */
export function sortProgress(
  rows: readonly TResidentProgress[],
  sort: TProgressSort,
): TResidentProgress[] {
  const compare = COMPARE[sort.key];
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => sign * compare(a, b) || byName(a, b));
}

const ORDER_WORDS: Record<TProgressSortKey, [ascending: string, descending: string]> = {
  resident: ['last name, A to Z', 'last name, Z to A'],
  room: ['lowest room first', 'highest room first'],
  nextOfKin: ['missing first, then A to Z', 'Z to A, missing last'],
  family: ['fewest joined first', 'most joined first'],
  recorded: ['fewest first', 'most first'],
  sent: ['fewest first', 'most first'],
  lastSession: ['longest ago first', 'most recent first'],
  needsHelp: ['those who need help last', 'those who need help first'],
  stations: ['offered first', 'not offered first'],
  status: ['living here first', 'died first'],
};

/** 'Sorted by Messages sent: fewest first.' — what the page says when the order changes. */
export function sortWords(sort: TProgressSort): string {
  const column = PROGRESS_COLUMNS.find((each) => each.key === sort.key)!;
  const [ascending, descending] = ORDER_WORDS[sort.key];
  return `Sorted by ${column.heading}: ${sort.direction === 'ascending' ? ascending : descending}.`;
}
