import { and, count, desc, eq, gt, sql, type SQLWrapper } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { asSubquery, jsonWholeRows, readAs } from '../../db/json-rows';
import { auditLogs } from '../../db/schema';
import type { TAuditEventType } from '../../../shared/domain/enums';
import { ZAuditLogQuery } from '../../../shared/schemas/safety-net';
import { defineContextRead } from '../auth/request-context.repository';

export type NewAuditRow = typeof auditLogs.$inferInsert;

export async function insertAuditRow(db: DbOrTx, values: NewAuditRow): Promise<void> {
  await db.insert(auditLogs).values(values);
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

/**
 * Newest first, a page of them, as one JSON array (decision 032): of one user (a placeholder or
 * the request's reader; uses audit_logs_user_time_idx) or, with `userId` null, of everyone.
 */
function auditPageOf(db: DbOrTx, userId: SQLWrapper | null) {
  const page = db
    .select()
    .from(auditLogs)
    .where(userId ? eq(auditLogs.userId, userId) : undefined)
    .orderBy(desc(auditLogs.timestamp), desc(auditLogs.id))
    .limit(sql.placeholder('limit'))
    .as('page');
  const rows = jsonWholeRows(
    'page',
    page._.selectedFields,
    sql`${page.timestamp} desc, ${page.id} desc`,
  );
  return { query: db.select({ rows }).from(page), rows };
}

/**
 * The audit log page, read with the request (decision 033). D15: a user reads their own events
 * whatever `userId` says; an admin reads everyone's, or the one user `userId` names. Each branch
 * is its own subquery, so each keeps its own index; only the branch taken is run.
 */
export const AUDIT_PAGE_READ = defineContextRead(
  'audit_page',
  (db, reader) => {
    const own = auditPageOf(db, reader.userId);
    const filtered = auditPageOf(db, sql.placeholder('filterUserId'));
    const everyone = auditPageOf(db, null);
    return readAs(
      own.rows,
      sql`case when not ${reader.isAdmin} then ${asSubquery(own.query, own.rows)}
        when ${sql.placeholder('filterUserId')}::int is null then ${asSubquery(everyone.query, everyone.rows)}
        else ${asSubquery(filtered.query, filtered.rows)} end`,
    );
  },
  (query) => {
    const parsed = ZAuditLogQuery.safeParse(query);
    if (!parsed.success) return null;
    return { filterUserId: parsed.data.userId ?? null, limit: AUDIT_PAGE_SIZE };
  },
);
