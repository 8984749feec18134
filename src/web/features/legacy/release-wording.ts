import { LEGACY_MESSAGES, type TRelease, type TReleaseRule } from '@shared/domain/legacy';
import { lazyDateFormat } from '@web/lib/date-format';

/** Dates as the owner and recipients read them: '4 December 2026'. */
const longDate = lazyDateFormat('en-GB', { dateStyle: 'long' });

export function formatLongDate(iso: string): string {
  return longDate.format(new Date(iso));
}

export const RELEASE_TEXT = {
  question: 'When can they watch?',
  now: 'Now',
  date: 'On a date',
  legacy: 'After my legacy is released',
  dateLabel: 'The date it opens',
} as const;

export const CANCEL_TEXT = {
  button: 'Cancel this release',
  done: 'The release is cancelled. Your messages stay as they are.',
} as const;

export const END_TEXT = {
  button: 'End the release',
  question: 'End the release of your legacy?',
  confirm: 'Yes, end the release',
  done: 'The release has ended. Messages nobody had watched are closed again.',
} as const;

/** Who asked, as the owner's screens name them. */
export function describeAsker(requestedBy: { firstName: string; lastName: string } | null): string {
  return requestedBy ? `${requestedBy.firstName} ${requestedBy.lastName}` : 'Your next of kin';
}

/** A rule as the choice holds it: the date as the date field has it (YYYY-MM-DD). */
export interface TReleaseDraft {
  rule: TReleaseRule;
  date: string;
}

export const NOW_DRAFT: TReleaseDraft = { rule: 'now', date: '' };

/** The date field's value as the moment that day starts in this browser's time zone. */
function startOfDayIso(date: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const start = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isNaN(start.getTime()) ? null : start.toISOString();
}

/** The day a moment falls on here, for the date field. */
function toDateField(iso: string): string {
  const day = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

export function toDraft(release: TRelease | undefined): TReleaseDraft {
  if (!release || release.rule !== 'date' || !release.at)
    return { rule: release?.rule ?? 'now', date: '' };
  return { rule: 'date', date: toDateField(release.at) };
}

/** The draft as the API takes it, or the message that says what is missing (the server's words). */
export function readDraft(
  draft: TReleaseDraft,
  now: Date = new Date(),
): { release: TRelease; error: null } | { release: null; error: string } {
  if (draft.rule !== 'date') return { release: { rule: draft.rule, at: null }, error: null };
  const at = startOfDayIso(draft.date);
  if (!at) return { release: null, error: LEGACY_MESSAGES.chooseDate };
  if (Date.parse(at) <= now.getTime())
    return { release: null, error: LEGACY_MESSAGES.dateInFuture };
  return { release: { rule: 'date', at }, error: null };
}

/** The first day the date field offers: tomorrow. */
export function tomorrowDateField(now: Date = new Date()): string {
  const tomorrow = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return toDateField(tomorrow.toISOString());
}

/** A message's rule in words, for the owner's library. */
export function describeRelease(release: TRelease | undefined, now: Date = new Date()): string {
  if (!release || release.rule === 'now') return 'They can watch it now';
  if (release.rule === 'legacy') return 'Opens after your legacy is released';
  if (!release.at) return 'Opens on a date not chosen yet';
  const date = formatLongDate(release.at);
  return Date.parse(release.at) <= now.getTime() ? `Opened on ${date}` : `Opens on ${date}`;
}
