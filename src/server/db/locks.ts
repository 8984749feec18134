import { sql } from 'drizzle-orm';
import type { DbOrTx } from './client';

/**
 * Every PostgreSQL advisory lock the server takes, in one table, so no two uses share a key.
 * All are transaction locks: released at commit or rollback.
 */
export const LOCK_KEYS = {
  /** Registrations one at a time, so exactly one first account becomes the admin. */
  registration: 7301,
  /** Changes to who is an admin, so two requests cannot remove the last one together. */
  adminSet: 7302,
  /** One account's upload admissions (per account), so parallel starts cannot overshoot the quota. */
  uploadAdmission: 8101,
  /** One failed-attempt counter (per kind and key), so concurrent failures are all counted. */
  failedAttempt: 8200,
  /** One account's attempt guard (per account key), so its checks and records do not interleave. */
  attemptGuard: 8201,
} as const;

export type LockName = keyof typeof LOCK_KEYS;

/**
 * Waits for the named lock until the transaction ends. `scope` narrows it to one row: a number
 * (an id) as it is, a string by its `hashtext`.
 */
export async function lockForTransaction(
  tx: DbOrTx,
  name: LockName,
  scope?: number | string,
): Promise<void> {
  const key = sql.raw(String(LOCK_KEYS[name]));
  if (scope === undefined) await tx.execute(sql`select pg_advisory_xact_lock(${key})`);
  else if (typeof scope === 'number') {
    await tx.execute(sql`select pg_advisory_xact_lock(${key}, ${scope})`);
  } else await tx.execute(sql`select pg_advisory_xact_lock(${key}, hashtext(${scope}))`);
}
