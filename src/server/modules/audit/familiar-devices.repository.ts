import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { auditLogs, devices } from '../../db/schema';

/** Whether the device is bound to one of these accounts (the owner's own). */
export async function isDeviceOf(
  db: DbOrTx,
  userIds: readonly number[],
  deviceId: string,
): Promise<boolean> {
  const [bound] = await db
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.id, deviceId), inArray(devices.userId, [...userIds])))
    .limit(1);
  return Boolean(bound);
}

/**
 * Whether one of these accounts signed in on the device before (itself, not as a recipient of
 * someone else's messages), or reset its password there the way `resetMethod` names (with an
 * emailed code).
 */
export async function hasSucceededOnDevice(
  db: DbOrTx,
  input: { userIds: readonly number[]; deviceId: string; resetMethod: string },
): Promise<boolean> {
  const [row] = await db
    .select({ id: auditLogs.id })
    .from(auditLogs)
    .where(
      and(
        inArray(auditLogs.userId, [...input.userIds]),
        eq(auditLogs.deviceId, input.deviceId),
        inArray(auditLogs.eventType, ['login', 'password_reset']),
        eq(auditLogs.successful, true),
        or(
          // A recipient's sign-in is written on the owner's log too; it is theirs, not the owner's.
          and(eq(auditLogs.eventType, 'login'), sql`${auditLogs.details}->>'recipientId' is null`),
          sql`${auditLogs.details}->>'method' = ${input.resetMethod}`,
        ),
      ),
    )
    .limit(1);
  return Boolean(row);
}
