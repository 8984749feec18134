import {
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { TExternalProvider } from '../../../shared/domain/enums';
import { createdAt } from './columns';
import { devices } from './devices';
import { users } from './users';

/** Sign-in with an external provider: linked identities and flows in progress. */

/**
 * An external sign-in linked to a primary account: at most one per provider per
 * account, and a provider's subject belongs to one account. No provider tokens are kept.
 */
export const externalIdentities = pgTable(
  'external_identities',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<TExternalProvider>().notNull(),
    subject: text('subject').notNull(),
    /** The email the provider gave when it was linked, to show the owner which account it is. */
    email: text('email'),
    createdAt: createdAt(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('external_identities_subject_idx').on(t.provider, t.subject),
    uniqueIndex('external_identities_user_provider_idx').on(t.userId, t.provider),
  ],
);

/**
 * A sign-in with an external provider in progress: bound to the device that started it, single
 * use, 10 minutes. The id is the SHA-256 of the flow cookie; state, nonce and PKCE verifier, and
 * later who the provider says this is, are sealed with the secret box.
 */
export const externalSignInFlows = pgTable(
  'external_sign_in_flows',
  {
    idHash: text('id_hash').primaryKey(),
    provider: text('provider').$type<TExternalProvider>().notNull(),
    intent: text('intent').$type<'sign_in' | 'link'>().notNull(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    /** link: the signed-in account the provider is being linked to. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    checksSealed: text('checks_sealed').notNull(),
    identitySealed: text('identity_sealed'),
    status: text('status')
      .$type<'started' | 'returned' | 'finished'>()
      .notNull()
      .default('started'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('external_sign_in_flows_expires_idx').on(t.expiresAt)],
);
