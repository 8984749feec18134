import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  CARE_HOME_MESSAGES,
  CONSENT_BASES,
  CONSENT_LABELS,
  IMPORT_COLUMNS,
  IMPORT_MAX_ROWS,
  IMPORT_REQUIRED_COLUMNS,
  type TConsentBasis,
  type TConsentBody,
  type TImportBody,
  type TImportResult,
  type TImportRow,
  type TResidentProgress,
} from '../../../shared/schemas/care-homes';
import { DEFAULT_PROGRESS_SORT, sortProgress } from '../../../shared/schemas/care-home-progress';
import { isSingleLine } from '../../../shared/schemas/common';
import { isUniqueViolation } from '../../db/database-errors';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import type { Actor } from '../access/actor';
import { recordAccountEvent, recordAudit, type RequestContext } from '../audit/audit.service';
import { maskEmail } from '../devices/device-move.service';
import { insertUser } from '../users/users.repository';
import {
  findImportKeys,
  findNextOfKinOf,
  findProgressRows,
  findResidentLink,
  insertResidentLink,
  updateResidentLink,
  type HomeSummaryRow,
} from './care-homes.repository';
import { requireOwnHome } from './care-homes.service';
import { parseCsv } from './csv';

type Deps = Pick<AppDeps, 'clock' | 'db'>;

const DAY_MS = 24 * 3600_000;
const fullName = (person: { firstName: string; lastName: string }) =>
  `${person.firstName} ${person.lastName}`;

type Column = (typeof IMPORT_COLUMNS)[number];
type ImportRecord = Record<Column, string>;

interface CheckedRow extends TImportRow {
  record: ImportRecord;
  key: string;
  consentBasis: TConsentBasis | null;
}

const ZRowEmail = z.email();

/** Name and room, lower-cased and with single spaces: the same resident in any file. */
function importKey(record: ImportRecord): string {
  return [record.first_name, record.last_name, record.room]
    .map((part) => part.trim().replace(/\s+/g, ' ').toLowerCase())
    .join('|');
}

function consentOf(value: string): TConsentBasis | null | undefined {
  const normal = value
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (normal === '') return null;
  return (CONSENT_BASES as readonly string[]).includes(normal)
    ? (normal as TConsentBasis)
    : undefined;
}

/** What is wrong with one line, in words that name the column; never an echo of an email. */
function rowErrors(record: ImportRecord): string[] {
  const errors: string[] = [];
  const text = (column: Column, label: string, max: number, required: boolean) => {
    const value = record[column];
    if (required && value === '') errors.push(`${label} is missing.`);
    else if (value.length > max) errors.push(`${label} is longer than ${max} characters.`);
    else if (!isSingleLine(value)) errors.push(`${label} has a line break or a hidden character.`);
  };
  text('first_name', 'First name', 60, true);
  text('last_name', 'Last name', 60, true);
  text('room', 'Room', 20, false);
  text('nok_first_name', 'Next of kin’s first name', 60, true);
  text('nok_last_name', 'Next of kin’s last name', 60, true);
  text('nok_relationship', 'Next of kin’s relationship', 40, false);
  text('attorney_name', 'Attorney’s name', 80, false);
  if (record.nok_email === '') errors.push('Next of kin’s email is missing.');
  else if (record.nok_email.length > 254 || !ZRowEmail.safeParse(record.nok_email).success) {
    errors.push('Next of kin’s email is not a valid email address.');
  }
  const consent = consentOf(record.consent_basis);
  if (consent === undefined) {
    errors.push('Consent basis must be resident, attorney or best_interests (or left empty).');
  } else if (consent === 'attorney' && record.attorney_name === '') {
    errors.push('Attorney’s name is missing: it is needed when the attorney gave consent.');
  }
  return errors;
}

/** The file's header and lines, or a refusal of the whole file that says why. */
function readFile(csv: string): { line: number; record: ImportRecord }[] {
  const [header, ...lines] = parseCsv(csv);
  if (!header || lines.length === 0)
    throw new AppError('VALIDATION', CARE_HOME_MESSAGES.importEmpty);
  const columns = header.fields.map((name) => name.trim().toLowerCase());
  const unknown = columns.filter((name) => !(IMPORT_COLUMNS as readonly string[]).includes(name));
  const missing = IMPORT_REQUIRED_COLUMNS.filter((name) => !columns.includes(name));
  if (unknown.length > 0 || missing.length > 0) {
    const problems = [
      ...(missing.length > 0 ? [`it has no ${missing.join(', ')} column`] : []),
      ...(unknown.length > 0
        ? [`it has columns Memento does not know (${unknown.join(', ')})`]
        : []),
    ];
    throw new AppError(
      'VALIDATION',
      `This file cannot be read: ${problems.join(' and ')}. The first line must name the columns: ${IMPORT_COLUMNS.join(', ')}.`,
    );
  }
  if (lines.length > IMPORT_MAX_ROWS)
    throw new AppError('VALIDATION', CARE_HOME_MESSAGES.importTooManyRows);
  return lines.map(({ line, fields }) => {
    const record = Object.fromEntries(IMPORT_COLUMNS.map((name) => [name, ''])) as ImportRecord;
    columns.forEach((name, index) => {
      record[name as Column] = (fields[index] ?? '').trim();
    });
    return { line, record };
  });
}

function checkRows(csv: string, existingKeys: Set<string>): CheckedRow[] {
  const seen = new Map<string, number>();
  return readFile(csv).map(({ line, record }) => {
    const key = importKey(record);
    const errors = rowErrors(record);
    const earlier = seen.get(key);
    if (earlier !== undefined && errors.length === 0) {
      errors.push(`The same name and room as line ${earlier}.`);
    }
    if (!seen.has(key)) seen.set(key, line);
    const state = errors.length > 0 ? 'invalid' : existingKeys.has(key) ? 'exists' : 'ready';
    return {
      line,
      name: `${record.first_name} ${record.last_name}`.trim(),
      room: record.room,
      state,
      errors,
      record,
      key,
      consentBasis: consentOf(record.consent_basis) ?? null,
    };
  });
}

/** A resident's own account, their next of kin, and the link to the home, all or nothing. */
async function importRow(
  deps: Deps,
  context: RequestContext,
  input: { home: HomeSummaryRow; actor: Actor; row: CheckedRow },
): Promise<'imported' | 'exists'> {
  const { home, actor, row } = input;
  const { record } = row;
  const now = deps.clock.now();
  try {
    await deps.db.transaction(async (tx) => {
      const handle = randomBytes(9).toString('base64url').toLowerCase();
      // Residents rarely have an email: a unique address that no mail is ever sent to.
      const resident = await insertUser(tx, {
        username: `resident-${handle}`,
        firstName: record.first_name,
        lastName: record.last_name,
        email: `resident-${handle}@resident.invalid`,
        category: 'primary',
        isPrimary: true,
      });
      const nextOfKin = await insertUser(tx, {
        username: `recipient-${randomBytes(9).toString('base64url').toLowerCase()}`,
        firstName: record.nok_first_name,
        lastName: record.nok_last_name,
        email: record.nok_email.toLowerCase(),
        category: 'next_of_kin',
        relationship: record.nok_relationship || null,
        createdById: resident.id,
        isPrimary: false,
        firstLogin: false,
      });
      const link = await insertResidentLink(tx, {
        careHomeId: home.id,
        userId: resident.id,
        room: record.room,
        importKey: row.key,
        consentBasis: row.consentBasis,
        attorneyName: row.consentBasis === 'attorney' ? record.attorney_name : null,
        consentRecordedAt: row.consentBasis ? now : null,
        createdAt: now,
      });
      // The resident's own log says who added them, and with whom.
      await recordAccountEvent(tx, context, resident, {
        eventType: 'care_home_resident_added',
        details: {
          message: `Added to ${home.name}, with ${fullName(nextOfKin)} as next of kin${row.consentBasis ? ` (${CONSENT_LABELS[row.consentBasis].toLowerCase()})` : ''}`,
          actor: `${fullName(actor.user)}, manager of ${home.name}`,
          residentId: link.id,
        },
      });
    });
    return 'imported';
  } catch (error) {
    // The same row imported a moment ago by another request.
    if (isUniqueViolation(error)) return 'exists';
    throw error;
  }
}

const countStates = (rows: TImportRow[]) => ({
  ready: rows.filter((row) => row.state === 'ready').length,
  imported: rows.filter((row) => row.state === 'imported').length,
  exists: rows.filter((row) => row.state === 'exists').length,
  invalid: rows.filter((row) => row.state === 'invalid').length,
});

/**
 * Checks every line before anything is written; with `dryRun` says what would happen. Otherwise
 * each valid line is imported on its own, and lines already in the home are left as they are.
 */
export async function importResidents(
  deps: Deps,
  context: RequestContext,
  input: { actor: Actor; body: TImportBody },
): Promise<TImportResult> {
  const home = await requireOwnHome(deps, input.actor);
  const checked = checkRows(input.body.csv, await findImportKeys(deps.db, home.id));
  const present = (row: CheckedRow): TImportRow => ({
    line: row.line,
    name: row.name,
    room: row.room,
    state: row.state,
    errors: row.errors,
  });
  if (input.body.dryRun) {
    const rows = checked.map(present);
    return { dryRun: true, rows, counts: countStates(rows) };
  }
  const rows: TImportRow[] = [];
  for (const row of checked) {
    const state =
      row.state === 'ready'
        ? await importRow(deps, context, { home, actor: input.actor, row })
        : row.state;
    rows.push({ ...present(row), state });
  }
  const counts = countStates(rows);
  await recordAccountEvent(deps.db, context, input.actor.user, {
    eventType: 'care_home_residents_imported',
    details: {
      message: `Imported ${counts.imported} resident${counts.imported === 1 ? '' : 's'} into ${home.name} (${counts.exists} already there, ${counts.invalid} with mistakes)`,
    },
  });
  return { dryRun: false, rows, counts };
}

/** Recordings whose sending has not finished for over a day: a count, never which ones. */
const stuckWords = (count: number) =>
  count === 1
    ? 'A recording has not finished sending for over a day'
    : `${count} recordings have not finished sending for over a day`;

/** Why a resident may need a hand, from counts and dates alone. */
function needsHelp(
  row: Awaited<ReturnType<typeof findProgressRows>>[number],
  hasNextOfKin: boolean,
  now: Date,
): string[] {
  if (row.status !== 'active') return [];
  const reasons: string[] = [];
  const addedDaysAgo = (now.getTime() - row.addedAt.getTime()) / DAY_MS;
  if (!hasNextOfKin) reasons.push('No next of kin');
  if (!row.consentBasis) reasons.push('No consent recorded');
  if (row.familyTotal > 0 && row.familyJoined === 0 && addedDaysAgo > 14) {
    reasons.push('Family not joined after 14 days');
  }
  const lastRecorded = row.lastRecordedAt ?? row.addedAt;
  if ((now.getTime() - lastRecorded.getTime()) / DAY_MS > 30)
    reasons.push('Nothing recorded in 30 days');
  if (row.stuckUploads > 0) reasons.push(stuckWords(row.stuckUploads));
  return reasons;
}

/** The progress table: numbers and dates only, and each next of kin's email masked. */
export async function getProgress(deps: Deps, actor: Actor): Promise<TResidentProgress[]> {
  return progressOfHome(deps, await requireOwnHome(deps, actor));
}

/** The progress table of a home already checked to be the asker's (the page and its export). */
export async function progressOfHome(
  deps: Deps,
  home: HomeSummaryRow,
): Promise<TResidentProgress[]> {
  const now = deps.clock.now();
  const rows = await findProgressRows(deps.db, home.id, new Date(now.getTime() - DAY_MS));
  const kin = await findNextOfKinOf(
    deps.db,
    rows.map((row) => row.userId),
  );
  const kinOf = new Map(kin.map((person) => [person.ownerId, person]));
  const table = rows.map((row): TResidentProgress => {
    const nextOfKin = kinOf.get(row.userId);
    return {
      id: row.id,
      firstName: row.firstName,
      lastName: row.lastName,
      room: row.room,
      status: row.status,
      consentBasis: row.consentBasis,
      nextOfKin: nextOfKin
        ? { name: fullName(nextOfKin), maskedEmail: maskEmail(nextOfKin.email) }
        : null,
      family: { joined: row.familyJoined, total: row.familyTotal },
      messages: { recorded: row.recorded, sent: row.sent },
      lastSessionAt: row.lastSessionAt?.toISOString() ?? null,
      addedAt: row.addedAt.toISOString(),
      needsHelp: needsHelp(row, Boolean(nextOfKin), now),
      paused: row.pausedAt !== null,
      statusChangedAt: row.statusChangedAt?.toISOString() ?? null,
    };
  });
  // Ordered as the page orders it by default, whatever the database's collation.
  return sortProgress(table, DEFAULT_PROGRESS_SORT);
}

/** Records (or clears) how a resident's consent was given, on the resident's own log too. */
export async function recordConsent(
  deps: Deps,
  context: RequestContext,
  input: { actor: Actor; residentId: number; body: TConsentBody },
): Promise<void> {
  const home = await requireOwnHome(deps, input.actor);
  const link = await findResidentLink(deps.db, input.residentId);
  if (!link || link.careHomeId !== home.id)
    throw new AppError('NOT_FOUND', CARE_HOME_MESSAGES.notFound);
  const { consentBasis } = input.body;
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await updateResidentLink(tx, link.id, {
      consentBasis,
      attorneyName: consentBasis === 'attorney' ? (input.body.attorneyName ?? null) : null,
      consentRecordedAt: consentBasis ? now : null,
    });
    await recordAudit(tx, context, {
      eventType: 'care_home_consent_recorded',
      userId: link.userId,
      username: link.username,
      details: {
        message: consentBasis
          ? `${home.name} recorded: ${CONSENT_LABELS[consentBasis].toLowerCase()}`
          : `${home.name} cleared the consent record`,
        actor: `${fullName(input.actor.user)}, manager of ${home.name}`,
      },
    });
  });
}
