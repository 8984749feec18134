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
