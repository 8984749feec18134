import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { TExternalProvider } from '../../../shared/domain/enums';
import type { DbOrTx } from '../../db/client';
import { externalIdentities, externalSignInFlows } from '../../db/schema';

export type FlowRow = typeof externalSignInFlows.$inferSelect;
export type IdentityRow = typeof externalIdentities.$inferSelect;

export async function insertFlow(
  db: DbOrTx,
  values: typeof externalSignInFlows.$inferInsert,
): Promise<void> {
  await db.insert(externalSignInFlows).values(values);
}

/**
 * Moves a live flow from one step to the next and answers it, or answers nothing when the flow
 * is unknown, expired, or already past that step: each step happens once, even when two
 * requests race.
 */
export async function advanceFlow(
  db: DbOrTx,
  idHash: string,
  from: FlowRow['status'],
  changes: Partial<Pick<FlowRow, 'status' | 'identitySealed' | 'expiresAt'>>,
): Promise<FlowRow | undefined> {
  const [row] = await db
    .update(externalSignInFlows)
    .set(changes)
    .where(
      and(
        eq(externalSignInFlows.idHash, idHash),
        eq(externalSignInFlows.status, from),
        gt(externalSignInFlows.expiresAt, sql`now()`),
      ),
    )
    .returning();
  return row;
}

export async function findLiveFlow(
  db: DbOrTx,
  idHash: string,
  status: FlowRow['status'],
): Promise<FlowRow | undefined> {
  const [row] = await db
    .select()
    .from(externalSignInFlows)
    .where(
      and(
        eq(externalSignInFlows.idHash, idHash),
        eq(externalSignInFlows.status, status),
        gt(externalSignInFlows.expiresAt, sql`now()`),
      ),
    );
  return row;
}

/** Flows are kept a day after they expire, then go (the hourly clean-up). */
export async function deleteExpiredFlows(db: DbOrTx, now: Date): Promise<void> {
  const before = new Date(now.getTime() - 24 * 3600_000);
  await db.delete(externalSignInFlows).where(lt(externalSignInFlows.expiresAt, before));
}

export async function findIdentity(
  db: DbOrTx,
  provider: TExternalProvider,
  subject: string,
): Promise<IdentityRow | undefined> {
  const [row] = await db
    .select()
    .from(externalIdentities)
    .where(and(eq(externalIdentities.provider, provider), eq(externalIdentities.subject, subject)));
  return row;
}

export async function findIdentitiesOfUser(db: DbOrTx, userId: number): Promise<IdentityRow[]> {
  return db
    .select()
    .from(externalIdentities)
    .where(eq(externalIdentities.userId, userId))
    .orderBy(externalIdentities.createdAt);
}

export async function insertIdentity(
  db: DbOrTx,
  values: typeof externalIdentities.$inferInsert,
): Promise<void> {
  await db.insert(externalIdentities).values(values);
}

export async function markIdentityUsed(db: DbOrTx, id: number, now: Date): Promise<void> {
  await db
    .update(externalIdentities)
    .set({ lastSignInAt: now })
    .where(eq(externalIdentities.id, id));
}

export async function deleteIdentity(db: DbOrTx, id: number): Promise<void> {
  await db.delete(externalIdentities).where(eq(externalIdentities.id, id));
}
