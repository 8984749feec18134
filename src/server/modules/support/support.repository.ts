import { and, asc, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { careHomes, careHomeStaff, supportRequests, users } from '../../db/schema';

export type SupportRow = typeof supportRequests.$inferSelect;

/** The home this account works at as accepted, still-enabled staff. */
export async function findHomeIdOfStaff(db: DbOrTx, userId: number): Promise<number | undefined> {
  const [row] = await db
    .select({ careHomeId: careHomeStaff.careHomeId })
    .from(careHomeStaff)
    .where(
      and(
        eq(careHomeStaff.userId, userId),
        isNotNull(careHomeStaff.acceptedAt),
        isNull(careHomeStaff.disabledAt),
      ),
    )
    .orderBy(asc(careHomeStaff.id))
    .limit(1);
  return row?.careHomeId;
}

export async function insertSupportRequest(
  db: DbOrTx,
  values: typeof supportRequests.$inferInsert,
): Promise<SupportRow> {
  const [row] = await db.insert(supportRequests).values(values).returning();
  return row!;
}

export function listHomeRequests(db: DbOrTx, careHomeId: number, limit: number) {
  return db
    .select()
    .from(supportRequests)
    .where(eq(supportRequests.careHomeId, careHomeId))
    .orderBy(desc(supportRequests.createdAt), desc(supportRequests.id))
    .limit(limit);
}

/** Open requests first; among them Professional homes first, then the oldest target. */
export function listAllRequests(db: DbOrTx, limit: number) {
  return db
    .select({ request: supportRequests, homeName: careHomes.name, homeSlug: careHomes.slug })
    .from(supportRequests)
    .innerJoin(careHomes, eq(careHomes.id, supportRequests.careHomeId))
    .orderBy(
      sql`case when ${supportRequests.status} = 'received' then 0 else 1 end`,
      desc(supportRequests.isPriority),
      asc(supportRequests.dueAt),
      asc(supportRequests.id),
    )
    .limit(limit);
}

export async function lockSupportRequest(db: DbOrTx, id: number): Promise<SupportRow | undefined> {
  const [row] = await db
    .select()
    .from(supportRequests)
    .where(eq(supportRequests.id, id))
    .for('update');
  return row;
}

export async function updateSupportRequest(
  db: DbOrTx,
  id: number,
  values: Partial<typeof supportRequests.$inferInsert>,
): Promise<SupportRow> {
  const [row] = await db
    .update(supportRequests)
    .set(values)
    .where(eq(supportRequests.id, id))
    .returning();
  return row!;
}

/** Every admin's address, for when no support address is configured. */
export async function findAdminEmails(db: DbOrTx): Promise<string[]> {
  const rows = await db.select({ email: users.email }).from(users).where(eq(users.isAdmin, true));
  return rows.map((row) => row.email);
}
