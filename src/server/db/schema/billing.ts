import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { TTier } from '../../../shared/domain/enums';
import { createdAt } from './columns';
import { users } from './users';

/** Stripe: events applied and the Checkout pages opened. */

/** Stripe events already applied: each is applied once, in its own transaction. */
export const billingEvents = pgTable('billing_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  /** No foreign key: the record of what was applied outlives the account. */
  userId: integer('user_id'),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The Stripe Checkout pages the app opens, one row each. A row is claimed ('opening', with the
 * idempotency key the page is made with) before Stripe is called, and filled in once Stripe
 * answers. An account has at most one row opening or open (the index below), so two clicks or two
 * tabs cannot pay for two plans; a plan is granted only through a customer the app made.
 */
export const billingCheckouts = pgTable(
  'billing_checkouts',
  {
    /** The idempotency key Stripe makes the page with: the same key, the same page. */
    key: text('key').primaryKey(),
    /** Stripe's Checkout session id; null while the page is being opened. */
    id: text('id').unique('billing_checkouts_session_idx'),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    customerId: text('customer_id').notNull(),
    tier: text('tier').$type<TTier>().notNull(),
    url: text('url'),
    /** opening (claimed, Stripe not answered yet), open, complete (paid) or expired (closed). */
    status: text('status')
      .$type<'opening' | 'open' | 'complete' | 'expired'>()
      .notNull()
      .default('opening'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('billing_checkouts_one_open_idx')
      .on(t.userId)
      .where(sql`${t.status} in ('opening', 'open')`),
    index('billing_checkouts_user_idx').on(t.userId, t.createdAt),
  ],
);
