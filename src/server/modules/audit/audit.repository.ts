import { and, count, desc, eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { jsonWholeRows } from '../../db/json-rows';
import { definePrepared } from '../../db/prepared';
import { auditLogs } from '../../db/schema';
import type { TAuditEventType } from '../../../shared/domain/enums';

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

/**
 * Newest first, a page of them, as one JSON array (decision 032); uses audit_logs_user_time_idx
 * when filtered by user.
 */
function auditPage(db: DbOrTx, byUser: boolean) {
  const page = db
    .select()
    .from(auditLogs)
    .where(byUser ? eq(auditLogs.userId, sql.placeholder('userId')) : undefined)
    .orderBy(desc(auditLogs.timestamp), desc(auditLogs.id))
    .limit(sql.placeholder('limit'))
    .as('page');
  return db
    .select({
      rows: jsonWholeRows(
        'page',
        page._.selectedFields,
        sql`${page.timestamp} desc, ${page.id} desc`,
      ),
    })
    .from(page)
    .prepare(byUser ? 'audit_rows_of_user' : 'audit_rows_all');
}

const auditRowsOfUser = definePrepared((db) => auditPage(db, true));
const allAuditRows = definePrepared((db) => auditPage(db, false));

export async function listAuditRows(db: DbOrTx, options: { userId?: number; limit: number }) {
  const [result] = await (options.userId === undefined
    ? allAuditRows(db).execute({ limit: options.limit })
    : auditRowsOfUser(db).execute({ userId: options.userId, limit: options.limit }));
  return result?.rows ?? [];
}
