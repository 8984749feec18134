import { and, desc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import type { TAuditEventType } from '../../../shared/domain/enums';
import type { TRelease } from '../../../shared/domain/legacy';
import type { TLegacySettings } from '../../../shared/schemas/legacy';
import type { DbOrTx } from '../../db/client';
import { auditLogs, legacyReleases, users, videos } from '../../db/schema';

export type LegacyReleaseRow = typeof legacyReleases.$inferSelect;

const iso = (date: Date) => date.toISOString();

/** The owner's waiting release with the next of kin who asked, if any. */
export async function findWaitingRelease(db: DbOrTx, ownerId: number) {
  const [row] = await db
    .select({
      release: legacyReleases,
      requestedBy: { firstName: users.firstName, lastName: users.lastName },
    })
    .from(legacyReleases)
    .leftJoin(users, eq(users.id, legacyReleases.requestedById))
    .where(and(eq(legacyReleases.ownerId, ownerId), eq(legacyReleases.status, 'waiting')));
  return row;
}

export async function insertWaitingRelease(
  db: DbOrTx,
  values: Omit<typeof legacyReleases.$inferInsert, 'status'>,
): Promise<LegacyReleaseRow> {
  const [row] = await db
    .insert(legacyReleases)
    .values({ ...values, status: 'waiting' })
    .returning();
  return row!;
}

/** Cancels the waiting release the owner's session or the emailed link names, while it waits. */
export async function cancelWaitingRelease(
  db: DbOrTx,
  input: { now: Date; by: 'email_link' | 'signed_in' } & (
    { ownerId: number } | { cancelTokenHash: string }
  ),
): Promise<LegacyReleaseRow | undefined> {
  const which =
    'ownerId' in input
      ? eq(legacyReleases.ownerId, input.ownerId)
      : eq(legacyReleases.cancelTokenHash, input.cancelTokenHash);
  const [row] = await db
    .update(legacyReleases)
    .set({ status: 'cancelled', cancelledAt: input.now, cancelledBy: input.by })
    .where(
      and(which, eq(legacyReleases.status, 'waiting'), gt(legacyReleases.releasesAt, input.now)),
    )
    .returning();
  return row;
}

/**
 * Sets `set` on up to `limit` waiting releases that meet `where`, and answers them: one statement
 * with SKIP LOCKED, so when two servers run at once each release is taken by one of them.
 */
async function claimWaiting(
  db: DbOrTx,
  input: { set: SQL; where: SQL; limit: number },
): Promise<LegacyReleaseRow[]> {
  const result = await db.execute(sql`
    update legacy_releases set ${input.set}
     where id in (
       select id from legacy_releases
        where status = 'waiting' and ${input.where}
        order by releases_at limit ${input.limit}
        for update skip locked)
    returning id`);
  return findReleasesByIds(
    db,
    rowsOf<{ id: number }>(result).map((row) => row.id),
  );
}

/**
 * Marks reminders as sent for releases that reached the point, and answers them. Halfway only
 * when the period is over two days (otherwise the last day's reminder is the halfway one); the
 * last day's only when the period is over one day (otherwise the request's own email said it).
 */
export function claimReminders(
  db: DbOrTx,
  input: { now: Date; kind: 'halfway' | 'last_day'; limit: number },
): Promise<LegacyReleaseRow[]> {
  const now = sql`${iso(input.now)}::timestamptz`;
  const halfway = input.kind === 'halfway';
  const column = sql.raw(halfway ? 'halfway_reminder_at' : 'last_day_reminder_at');
  const reached = halfway
    ? sql`releases_at - requested_at > interval '2 days'
          and requested_at + (releases_at - requested_at) / 2 <= ${now}`
    : sql`releases_at - requested_at > interval '1 day'
          and releases_at - interval '1 day' <= ${now}`;
  return claimWaiting(db, {
    set: sql`${column} = ${now}`,
    where: sql`${column} is null and releases_at > ${now} and ${reached}`,
    limit: input.limit,
  });
}

/** Releases whose waiting period ran out unanswered, now released (each by one server). */
export function claimDueReleases(
  db: DbOrTx,
  input: { now: Date; limit: number },
): Promise<LegacyReleaseRow[]> {
  const now = sql`${iso(input.now)}::timestamptz`;
  return claimWaiting(db, {
    set: sql`status = 'released', released_at = ${now}`,
    // A request whose asker is gone never releases: the sweep cancels it instead.
    where: sql`releases_at <= ${now} and requested_by_id is not null`,
    limit: input.limit,
  });
}

async function findReleasesByIds(db: DbOrTx, ids: number[]): Promise<LegacyReleaseRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(legacyReleases).where(inArray(legacyReleases.id, ids));
}

/** The owner's legacy is released from `now` (once: a later release keeps the first date). */
export async function markLegacyReleased(db: DbOrTx, ownerId: number, now: Date): Promise<void> {
  await db
    .update(users)
    .set({ legacyReleasedAt: sql`coalesce(${users.legacyReleasedAt}, ${iso(now)}::timestamptz)` })
    .where(eq(users.id, ownerId));
}

/** Recipients with a cloud message set to open on the owner's legacy release. */
export async function findLegacyRecipients(db: DbOrTx, ownerId: number) {
  const result = await db.execute(sql`
    select distinct r.id, r.first_name, r.last_name, r.email
      from videos v join users r on r.id = v.recipient_id
     where v.creator_id = ${ownerId} and v.release_rule = 'legacy' and v.sync_status = 'synced'`);
  return rowsOf<{ id: number; first_name: string; last_name: string; email: string }>(result);
}

/** Dated cloud messages that have opened and were not announced yet, now marked announced. */
export async function claimOpenedMessages(db: DbOrTx, input: { now: Date; limit: number }) {
  const now = iso(input.now);
  const result = await db.execute(sql`
    update videos set opening_announced_at = ${now}::timestamptz
     where id in (
       select id from videos
        where release_rule = 'date' and opening_announced_at is null
          and release_at <= ${now}::timestamptz and sync_status = 'synced'
        order by release_at limit ${input.limit}
        for update skip locked)
    returning id, creator_id, recipient_id`);
  return rowsOf<{ id: string; creator_id: number; recipient_id: number }>(result);
}

/**
 * Owners with the inactivity check on, when they were last active (a session's last request or
 * one of their own sign-ins in the log, else the account's creation), and the reminders sent.
 */
export async function findOwnersToCheckForInactivity(db: DbOrTx) {
  const result = await db.execute(sql`
    select u.id, u.inactivity_months, u.inactivity_notices, u.inactivity_notice_at,
           greatest(
             u.created_at,
             (select max(s.last_seen_at) from sessions s where s.user_id = u.id),
             (select max(a.timestamp) from audit_logs a
               where a.user_id = u.id and a.event_type = 'login' and a.successful
                 -- A recipient's sign-in is on the owner's log too, but it is not the owner.
                 and a.details->>'recipientId' is null)
           ) as last_active_at
      from users u
     where u.inactivity_months is not null and u.category = 'primary'
       and u.legacy_released_at is null`);
  return rowsOf<{
    id: number;
    inactivity_months: number;
    inactivity_notices: number;
    inactivity_notice_at: string | Date | null;
    last_active_at: string | Date;
  }>(result).map((row) => ({
    id: row.id,
    months: row.inactivity_months,
    notices: row.inactivity_notices,
    noticeAt: row.inactivity_notice_at === null ? null : new Date(row.inactivity_notice_at),
    lastActiveAt: new Date(row.last_active_at),
  }));
}

/** Moves an owner's notice count from `from` to `to`; false when another server did already. */
export async function advanceInactivityNotices(
  db: DbOrTx,
  input: { ownerId: number; from: number; to: number; now: Date },
): Promise<boolean> {
  const updated = await db
    .update(users)
    .set({ inactivityNotices: input.to, inactivityNoticeAt: input.to === 0 ? null : input.now })
    .where(and(eq(users.id, input.ownerId), eq(users.inactivityNotices, input.from)))
    .returning({ id: users.id });
  return updated.length === 1;
}

/**
 * Saves the owner's legacy settings (and their time zone, when known). Saving is being active:
 * the inactivity count starts again.
 */
export async function updateLegacySettings(
  db: DbOrTx,
  input: { ownerId: number; settings: TLegacySettings; timeZone: string | null },
): Promise<void> {
  const { settings } = input;
  await db
    .update(users)
    .set({
      legacyWaitingDays: settings.waitingDays,
      inactivityMonths: settings.inactivityMonths,
      showWaitingMessages: settings.showWaitingMessages,
      inactivityNotices: 0,
      inactivityNoticeAt: null,
      ...(input.timeZone ? { timeZone: input.timeZone } : {}),
    })
    .where(eq(users.id, input.ownerId));
}

/** The owner's time zone, as their browser last said it. */
export async function updateTimeZone(db: DbOrTx, ownerId: number, timeZone: string): Promise<void> {
  await db.update(users).set({ timeZone }).where(eq(users.id, ownerId));
}

/**
 * Sets when the owner's message opens; answers its index entry, or undefined when the message
 * is not theirs. A new date is announced again when it comes.
 */
export async function updateReleaseRule(
  db: DbOrTx,
  input: { ownerId: number; videoId: string; release: TRelease; now: Date },
): Promise<string | null | undefined> {
  const { release } = input;
  const [row] = await db
    .update(videos)
    .set({
      releaseRule: release.rule,
      releaseAt: release.at === null ? null : new Date(release.at),
      openingAnnouncedAt: null,
      updatedAt: input.now,
    })
    .where(and(eq(videos.id, input.videoId), eq(videos.creatorId, input.ownerId)))
    .returning({ indexEntry: videos.indexEntry });
  return row ? row.indexEntry : undefined;
}

/** The owner's successful legacy events, newest first (at most 100): the released history. */
export async function findLegacyHistory(
  db: DbOrTx,
  input: { ownerId: number; eventTypes: readonly TAuditEventType[] },
) {
  return db
    .select({ at: auditLogs.timestamp, details: auditLogs.details })
    .from(auditLogs)
    .where(
      and(
        eq(auditLogs.userId, input.ownerId),
        eq(auditLogs.successful, true),
        inArray(auditLogs.eventType, [...input.eventTypes]),
      ),
    )
    .orderBy(desc(auditLogs.timestamp))
    .limit(100);
}

function rowsOf<T>(result: unknown): T[] {
  // Both drivers (PGlite and node-postgres) answer raw SQL with `{ rows }`.
  return (result as { rows: T[] }).rows;
}
