import { and, count, eq, isNotNull, lte, or, sql } from 'drizzle-orm';
import type { TPaidTier } from '../../../shared/domain/plans';
import type { DbOrTx } from '../../db/client';
import { billingCheckouts, billingEvents, users } from '../../db/schema';
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

/** The account whose Stripe customer this is: only a customer the app made for it. */
export async function findUserByCustomer(
  db: DbOrTx,
  customerId: string,
): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.paymentCustomerId, customerId));
  return row;
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

export type CheckoutRow = typeof billingCheckouts.$inferSelect;

/** The account's Checkout page that can still be paid, if any (at most one). */
export async function findOpenCheckout(
  db: DbOrTx,
  userId: number,
): Promise<CheckoutRow | undefined> {
  const [row] = await db
    .select()
    .from(billingCheckouts)
    .where(and(eq(billingCheckouts.userId, userId), eq(billingCheckouts.status, 'open')));
  return row;
}

/** How many Checkout pages the account has opened: it numbers the next one's idempotency key. */
export async function countCheckouts(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(billingCheckouts)
    .where(eq(billingCheckouts.userId, userId));
  return row?.n ?? 0;
}

export async function insertCheckout(
  db: DbOrTx,
  row: {
    id: string;
    userId: number;
    customerId: string;
    tier: TPaidTier;
    url: string;
    expiresAt: Date;
  },
): Promise<void> {
  await db.insert(billingCheckouts).values(row);
}

/** A Checkout page paid or closed; only an open one changes. */
export async function closeCheckout(
  db: DbOrTx,
  id: string,
  status: 'complete' | 'expired',
): Promise<void> {
  await db
    .update(billingCheckouts)
    .set({ status })
    .where(and(eq(billingCheckouts.id, id), eq(billingCheckouts.status, 'open')));
}

/** Every open Checkout page of the account, closed (they were expired at Stripe). */
export async function closeOpenCheckoutsOf(db: DbOrTx, userId: number): Promise<void> {
  await db
    .update(billingCheckouts)
    .set({ status: 'expired' })
    .where(and(eq(billingCheckouts.userId, userId), eq(billingCheckouts.status, 'open')));
}
