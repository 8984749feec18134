import { and, count, eq, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
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

/** A row that holds the account's one place: being opened at Stripe, or open to be paid. */
const isActive = inArray(billingCheckouts.status, ['opening', 'open']);

/**
 * Saves the account's Stripe customer unless it already has one: two windows that made the same
 * customer (one idempotency key) both save it, and neither replaces another.
 */
export async function saveCustomerOnce(
  db: DbOrTx,
  userId: number,
  customerId: string,
  now: Date,
): Promise<void> {
  await db
    .update(users)
    .set({ paymentCustomerId: customerId, updatedAt: now })
    .where(and(eq(users.id, userId), isNull(users.paymentCustomerId)));
}

/** The account's Checkout page being opened or open, if any (at most one). */
export async function findActiveCheckout(
  db: DbOrTx,
  userId: number,
): Promise<CheckoutRow | undefined> {
  const [row] = await db
    .select()
    .from(billingCheckouts)
    .where(and(eq(billingCheckouts.userId, userId), isActive));
  return row;
}

export async function findCheckoutByKey(db: DbOrTx, key: string): Promise<CheckoutRow | undefined> {
  const [row] = await db.select().from(billingCheckouts).where(eq(billingCheckouts.key, key));
  return row;
}

/**
 * Claims the account's one place for a new page, before Stripe is called. Its key numbers the
 * pages the account has had, so a repeat after a failure gets the same page from Stripe. Undefined
 * when another window claimed first (the index allows one).
 */
export async function claimCheckout(
  db: DbOrTx,
  input: { userId: number; keyPrefix: string; customerId: string; tier: TPaidTier },
): Promise<CheckoutRow | undefined> {
  const [had] = await db
    .select({ n: count() })
    .from(billingCheckouts)
    .where(eq(billingCheckouts.userId, input.userId));
  const [row] = await db
    .insert(billingCheckouts)
    .values({
      key: `${input.keyPrefix}-${(had?.n ?? 0) + 1}-${input.tier}`,
      userId: input.userId,
      customerId: input.customerId,
      tier: input.tier,
      status: 'opening',
    })
    .onConflictDoNothing()
    .returning();
  return row;
}

/** The page Stripe made for a claim; undefined when the claim is no longer opening. */
export async function recordOpened(
  db: DbOrTx,
  key: string,
  page: { id: string; url: string; expiresAt: Date },
): Promise<CheckoutRow | undefined> {
  const [row] = await db
    .update(billingCheckouts)
    .set({ ...page, status: 'open' })
    .where(and(eq(billingCheckouts.key, key), eq(billingCheckouts.status, 'opening')))
    .returning();
  return row;
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

/**
 * Every page of the account opening or open, closed. A page still being opened then finds its
 * claim gone and closes itself at Stripe.
 */
export async function closeOpenCheckoutsOf(db: DbOrTx, userId: number): Promise<void> {
  await db
    .update(billingCheckouts)
    .set({ status: 'expired' })
    .where(and(eq(billingCheckouts.userId, userId), isActive));
}
