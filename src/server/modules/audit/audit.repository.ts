import { and, count, desc, eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
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

/** Newest first; uses audit_logs_user_time_idx when filtered by user. */
const auditRowsOfUser = definePrepared((db) =>
  db
    .select()
    .from(auditLogs)
    .where(eq(auditLogs.userId, sql.placeholder('userId')))
    .orderBy(desc(auditLogs.timestamp), desc(auditLogs.id))
    .limit(sql.placeholder('limit'))
    .prepare('audit_rows_of_user'),
);

const allAuditRows = definePrepared((db) =>
  db
    .select()
    .from(auditLogs)
    .orderBy(desc(auditLogs.timestamp), desc(auditLogs.id))
    .limit(sql.placeholder('limit'))
    .prepare('audit_rows_all'),
);

export async function listAuditRows(db: DbOrTx, options: { userId?: number; limit: number }) {
  return options.userId === undefined
    ? allAuditRows(db).execute({ limit: options.limit })
    : auditRowsOfUser(db).execute({ userId: options.userId, limit: options.limit });
}
