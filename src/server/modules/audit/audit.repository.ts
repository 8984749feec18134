import { and, count, eq, gt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
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
