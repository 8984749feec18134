import { and, count, desc, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { joinedJsonTexts, readAs } from '../../db/json-rows';
import { auditLogs } from '../../db/schema';
import type { TAuditEventType } from '../../../shared/domain/enums';
import { ZAuditLogQuery } from '../../../shared/schemas/audit';
import {
  defineCachedContextRead,
  defineCachedVersionCheck,
  type ContextReader,
} from '../auth/request-context.repository';
import { describeActor, describeDetails } from './audit.presenter';

export type NewAuditRow = typeof auditLogs.$inferInsert;

/** Appends one event, with its details in words: the database makes its entry. */
export async function insertAuditRow(
  db: DbOrTx,
  values: Omit<NewAuditRow, 'summary' | 'actor' | 'entry'>,
): Promise<void> {
  const details = values.details ?? {};
  await db
    .insert(auditLogs)
    .values({ ...values, summary: describeDetails(details), actor: describeActor(details) });
}

/**
 * Words the events written before migration 0010, which have no entry yet, newest first and a
 * batch at a time, so the log a person opens first is worded first; answers how many. Servers
 * sharing a database may run it at once: each takes rows the others have not locked. Stops
 * between batches once `signal` aborts (the server closing); the next start goes on.
 */
export async function wordEarlierAuditEntries(
  db: Db,
  options: { batchSize?: number; signal?: AbortSignal } = {},
): Promise<number> {
  const batchSize = options.batchSize ?? 500;
  let worded = 0;
  while (!options.signal?.aborted) {
    const count = await db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: auditLogs.id, details: auditLogs.details })
        .from(auditLogs)
        .where(isNull(auditLogs.entry))
        .orderBy(desc(auditLogs.id))
        .limit(batchSize)
        .for('update', { skipLocked: true });
      if (rows.length === 0) return 0;
      const words = rows.map((row) => {
        // A JSON null or a non-object stored by some older release words as no details.
        const details = typeof row.details === 'object' && row.details !== null ? row.details : {};
        return sql`(${row.id}::int, ${describeDetails(details)}::text, ${describeActor(details)}::text)`;
      });
      // The update makes each row's entry (the trigger of migration 0010).
      await tx.execute(sql`update ${auditLogs}
        set summary = words.summary, actor = words.actor
        from (values ${sql.join(words, sql`, `)}) as words (id, summary, actor)
        where ${auditLogs.id} = words.id`);
      return rows.length;
    });
    if (count === 0) break;
    worded += count;
  }
  return worded;
}

/** Failed events of one type against an account since a moment, optionally from one device. */
export async function countFailures(
  db: DbOrTx,
  options: { eventType: TAuditEventType; userId: number; since: Date; deviceId?: string },
): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(auditLogs)
    .where(
      and(
        eq(auditLogs.userId, options.userId),
        eq(auditLogs.eventType, options.eventType),
        eq(auditLogs.successful, false),
        gt(auditLogs.timestamp, options.since),
        options.deviceId ? eq(auditLogs.deviceId, options.deviceId) : undefined,
      ),
    );
  return row?.value ?? 0;
}

/** How many events one read of the audit log answers, newest first. */
export const AUDIT_PAGE_SIZE = 200;

/** Newest first, the order of audit_logs_user_time_idx and audit_logs_time_idx. */
const NEWEST_FIRST = [desc(auditLogs.timestamp), desc(auditLogs.id)] as const;

/**
 * One user's events (or, with `userId` null, everyone's), newest first, a page of them: the
 * entries the database keeps, joined into the text of one JSON array. An event
 * from before migration 0010 not yet worded reads as `audit_log_entry` makes it meanwhile, the
 * same entry without its words.
 */
function auditPageOf(db: DbOrTx, userId: SQL | null) {
  return joinedJsonTexts(
    db
      .select({ entry: sql`coalesce(${auditLogs.entry}, audit_log_entry(${auditLogs}))` })
      .from(auditLogs)
      .where(userId ? eq(auditLogs.userId, userId) : undefined)
      .orderBy(...NEWEST_FIRST)
      .limit(sql.placeholder('limit')),
  );
}

/**
 * Where the page a reader asks for looks. A user reads their own events whatever `userId`
 * says; an admin reads the one user `userId` names, or without it everyone's (`null`).
 */
function pageScope(reader: ContextReader, filterUserId: SQL): { everyone: SQL; userId: SQL } {
  return {
    everyone: sql`${reader.isAdmin} and ${filterUserId} is null`,
    userId: sql`case when ${reader.isAdmin} then ${filterUserId} else ${reader.userId} end`,
  };
}

const filterUserIdPlaceholder = () => sql`${sql.placeholder('filterUserId')}::int`;

/**
 * Whether an entry in the scope (one account's, or with `userId` null everyone's) was written by
 * a transaction that the snapshot `since` had not seen: committed after it, or running then
 * (audit_logs_user_written_idx, audit_logs_written_idx). Every such transaction
 * is at or after the snapshot's xmin, and one this statement sees is before its own snapshot's
 * xmax: bounded on both sides, the range reads as a narrow one to the plan PostgreSQL keeps for
 * the statement, which then takes the index for everyone's entries too, not a scan of them all.
 */
function writtenSince(db: DbOrTx, userId: SQL | null, since: SQL): SQL<boolean> {
  const writtenIn = auditLogs.entryWrittenIn;
  return sql<boolean>`exists (${db
    .select({ one: sql`1` })
    .from(auditLogs)
    .where(
      and(
        userId ? eq(auditLogs.userId, userId) : undefined,
        sql`${writtenIn} >= pg_snapshot_xmin(${since})`,
        sql`${writtenIn} < pg_snapshot_xmax(pg_current_snapshot())`,
        sql`not pg_visible_in_snapshot(${writtenIn}, ${since})`,
      ),
    )})`;
}

/**
 * The lookups with the snapshot an audit log page was cached at (`cachedVersion`), as long as no
 * entry of the page's scope has been written since; NULL once one has. One statement
 * for each scope, each with the one subquery it runs: the page cached for an admin without a
 * filter is everyone's; any other is one account's (if the reader's admin flag has changed since,
 * the answer is not sent whatever the statement says).
 */
const unchangedSince = (db: DbOrTx, userId: SQL | null) => {
  const since = sql`${sql.placeholder('cachedVersion')}::text::pg_snapshot`;
  return sql<string | null>`case when not ${writtenSince(db, userId, since)}
    then ${sql.placeholder('cachedVersion')}::text end`;
};
const ONE_ACCOUNTS_PAGE_UNCHANGED = defineCachedVersionCheck('audit_page_unchanged', (db, reader) =>
  unchangedSince(db, pageScope(reader, filterUserIdPlaceholder()).userId),
);
const EVERYONES_PAGE_UNCHANGED = defineCachedVersionCheck('audit_log_unchanged', (db) =>
  unchangedSince(db, null),
);
/**
 * The lookups with the cached snapshot answered back only while the statement's own snapshot is
 * that very one. A snapshot is the oldest running transaction, one past the newest
 * that has ended, and those below it still running: any commit since moves the second or takes
 * one out of the third, so an equal snapshot means nothing at all has committed. No index of the
 * log is asked (PostgreSQL sets up a subquery on every execution, run or not).
 */
const NOTHING_COMMITTED_SINCE = defineCachedVersionCheck('audit_nothing_committed', () => {
  const cached = sql`${sql.placeholder('cachedVersion')}::text`;
  return sql<string | null>`case when pg_current_snapshot()::text = ${cached} then ${cached} end`;
});

/**
 * The audit log page, read with the request, and cached by the server for the
 * session while no entry in its scope is written. A user reads their own
 * events whatever `userId` says (audit_logs_user_time_idx); an admin reads the one user `userId`
 * names, the same way, or without it everyone's (audit_logs_time_idx). Two branches, each its own
 * subquery keeping its own index; only the one taken is run, but PostgreSQL sets up every branch
 * on each execution, so there is no third for the admin's filter.
 */
export const AUDIT_PAGE_READ = defineCachedContextRead(
  'audit_page',
  (db, reader) => {
    const scope = pageScope(reader, filterUserIdPlaceholder());
    const ownOrFiltered = auditPageOf(db, scope.userId);
    return readAs(
      ownOrFiltered,
      sql`case when ${scope.everyone} then ${auditPageOf(db, null)} else ${ownOrFiltered} end`,
    );
  },
  (text) => text.length,
  {
    version: sql<string>`pg_current_snapshot()::text`,
    check: (db, cached) =>
      cached.isAdmin && cached.params.filterUserId === null
        ? EVERYONES_PAGE_UNCHANGED(db)
        : ONE_ACCOUNTS_PAGE_UNCHANGED(db),
    unchangedAtAll: NOTHING_COMMITTED_SINCE,
  },
  (query) => {
    const parsed = ZAuditLogQuery.safeParse(query);
    if (!parsed.success) return null;
    return { filterUserId: parsed.data.userId ?? null, limit: AUDIT_PAGE_SIZE };
  },
);
