import { and, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { RECIPIENT_CATEGORIES, type TRecipientCategory } from '../../../shared/domain/enums';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

/**
 * What every signed-in request knows of its user: read with the session in one
 * prepared query, so it leaves out secrets (password and code hashes, second-factor secret,
 * provider tokens) and bookkeeping no request decides on. Code that needs more reads the row.
 */
export const SESSION_USER_COLUMNS = {
  id: users.id,
  username: users.username,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  isPrimary: users.isPrimary,
  isAdmin: users.isAdmin,
  role: users.role,
  twoFactorEnabled: users.twoFactorEnabled,
  twoFactorEnrolledAt: users.twoFactorEnrolledAt,
  category: users.category,
  createdById: users.createdById,
  phoneNumber: users.phoneNumber,
  relationship: users.relationship,
  firstLogin: users.firstLogin,
  hasSetPassword: users.hasSetPassword,
  subscriptionStatus: users.subscriptionStatus,
  subscriptionTier: users.subscriptionTier,
  isVIP: users.isVIP,
  onboardingCompletedAt: users.onboardingCompletedAt,
  tosAccepted: users.tosAccepted,
  tosAcceptedAt: users.tosAcceptedAt,
  createdAt: users.createdAt,
};
export type SessionUser = Pick<UserRow, keyof typeof SESSION_USER_COLUMNS>;

export async function findUserById(db: DbOrTx, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

/** Usernames are unique without regard to case. */
export async function findUserByUsername(
  db: DbOrTx,
  username: string,
): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`);
  return row;
}

export async function isPrimaryEmailTaken(db: DbOrTx, email: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, eq(users.category, 'primary')));
  return row !== undefined;
}

export async function hasAnyAdmin(db: DbOrTx): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.isAdmin, true))
    .limit(1);
  return row !== undefined;
}

export async function insertUser(db: DbOrTx, values: NewUserRow): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  return row!;
}

export async function updateUser(
  db: DbOrTx,
  id: number,
  values: Partial<NewUserRow>,
  now: Date,
): Promise<void> {
  await db
    .update(users)
    .set({ ...values, updatedAt: now })
    .where(eq(users.id, id));
}

export async function findPrimaryByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, eq(users.category, 'primary')));
  return row;
}

export async function findRecipientsOf(
  db: DbOrTx,
  ownerId: number,
  category?: UserRow['category'],
): Promise<UserRow[]> {
  return db
    .select()
    .from(users)
    .where(and(eq(users.createdById, ownerId), category ? eq(users.category, category) : undefined))
    .orderBy(users.id);
}

/** Every row with this email among these categories of people owners added, with its owner. */
function findAddedByEmail(db: DbOrTx, email: string, categories: readonly TRecipientCategory[]) {
  const owners = alias(users, 'owners');
  return db
    .select({ person: users, owner: owners })
    .from(users)
    .innerJoin(owners, eq(owners.id, users.createdById))
    .where(
      and(
        sql`lower(${users.email}) = ${email.toLowerCase()}`,
        inArray(users.category, [...categories]),
      ),
    );
}

/** Every next-of-kin row with this email, each with the primary account it belongs to. */
export async function findNextOfKinByEmail(db: DbOrTx, email: string) {
  const rows = await findAddedByEmail(db, email, ['next_of_kin']);
  return rows.map(({ person, owner }) => ({ nextOfKin: person, owner }));
}

/** Every recipient row with this email (next of kin, family, friend), each with its owner. */
export async function findRecipientsByEmail(db: DbOrTx, email: string) {
  const rows = await findAddedByEmail(db, email, RECIPIENT_CATEGORIES);
  return rows.map(({ person, owner }) => ({ recipient: person, owner }));
}

export async function deleteUserRow(db: DbOrTx, id: number): Promise<void> {
  await db.delete(users).where(eq(users.id, id));
}
