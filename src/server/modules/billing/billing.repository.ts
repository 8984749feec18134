import { and, eq, isNotNull, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { billingEvents, users } from '../../db/schema';
import type { UserRow } from '../users/users.repository';

export async function isEventApplied(db: DbOrTx, eventId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: billingEvents.id })
    .from(billingEvents)
    .where(eq(billingEvents.id, eventId));
  return row !== undefined;
}

/**
 * Records an event as applied, in the transaction that applies it. False when it already was:
 * a second delivery waits here for the first to commit, then finds its row.
 */
export async function recordEvent(
  tx: DbOrTx,
  event: { id: string; type: string; userId: number | null },
): Promise<boolean> {
  const inserted = await tx
    .insert(billingEvents)
    .values(event)
    .onConflictDoNothing({ target: billingEvents.id })
    .returning({ id: billingEvents.id });
  return inserted.length > 0;
}

/** The account row, locked until the transaction ends, so two changes to it queue up. */
export async function lockUser(tx: DbOrTx, userId: number): Promise<UserRow | undefined> {
  const [row] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
  return row;
}

export async function findUserIdByCustomer(
  db: DbOrTx,
  customerId: string,
): Promise<number | undefined> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.paymentCustomerId, customerId));
  return row?.id;
}

/** Accounts whose plan has run out by `now` (grace over, or a cancelled period over). */
export async function findRunOutAccounts(db: DbOrTx, now: Date): Promise<number[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        isNotNull(users.billedTier),
        or(
          lte(users.graceEndsAt, now),
          and(eq(users.cancelAtPeriodEnd, true), lte(users.currentPeriodEnd, now)),
        ),
      ),
    )
    .orderBy(sql`${users.id}`);
  return rows.map((row) => row.id);
}
