import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { legacyReleases, users } from '../../db/schema';
import type { LegacyReleaseRow } from './legacy.repository';

/**
 * The requester's last request for this owner that the owner answered: cancelled by them, or
 * released and then ended. A request cancelled because its requester was removed or stopped is
 * not counted: that is a hold of its own, or nobody is left to hold.
 */
export async function findLastAnsweredRequest(
  db: DbOrTx,
  input: { ownerId: number; requesterId: number },
): Promise<{ at: Date; how: 'cancelled' | 'ended' } | undefined> {
  const answeredAt = sql<Date>`coalesce(${legacyReleases.endedAt}, ${legacyReleases.cancelledAt})`;
  const [row] = await db
    .select({
      status: legacyReleases.status,
      endedAt: legacyReleases.endedAt,
      cancelledAt: legacyReleases.cancelledAt,
    })
    .from(legacyReleases)
    .where(
      and(
        eq(legacyReleases.ownerId, input.ownerId),
        eq(legacyReleases.requestedById, input.requesterId),
        sql`(${legacyReleases.status} = 'ended'
             or (${legacyReleases.status} = 'cancelled'
                 and ${legacyReleases.cancelledBy} in ('email_link', 'signed_in')))`,
      ),
    )
    .orderBy(desc(answeredAt))
    .limit(1);
  if (!row) return undefined;
  const at = row.status === 'ended' ? row.endedAt : row.cancelledAt;
  return at ? { at, how: row.status === 'ended' ? 'ended' : 'cancelled' } : undefined;
}

/** The owner's next of kin, with whether each is stopped from asking. */
export function findNextOfKinOf(db: DbOrTx, ownerId: number) {
  return db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      legacyRequestsStoppedAt: users.legacyRequestsStoppedAt,
    })
    .from(users)
    .where(and(eq(users.createdById, ownerId), eq(users.category, 'next_of_kin')))
    .orderBy(users.id);
}

/** Stops a next of kin from asking (a time) or lets them ask again (null); false when not theirs. */
export async function setRequestsStoppedAt(
  db: DbOrTx,
  input: { ownerId: number; nextOfKinId: number; stoppedAt: Date | null },
): Promise<boolean> {
  const updated = await db
    .update(users)
    .set({ legacyRequestsStoppedAt: input.stoppedAt })
    .where(
      and(
        eq(users.id, input.nextOfKinId),
        eq(users.createdById, input.ownerId),
        eq(users.category, 'next_of_kin'),
      ),
    )
    .returning({ id: users.id });
  return updated.length === 1;
}

/** Cancels the waiting release this requester asked for, if one waits. */
export async function cancelWaitingReleaseOf(
  db: DbOrTx,
  input: {
    ownerId: number;
    requesterId: number;
    now: Date;
    by: 'requester_removed' | 'requester_stopped';
  },
): Promise<LegacyReleaseRow | undefined> {
  const [row] = await db
    .update(legacyReleases)
    .set({ status: 'cancelled', cancelledAt: input.now, cancelledBy: input.by })
    .where(
      and(
        eq(legacyReleases.ownerId, input.ownerId),
        eq(legacyReleases.requestedById, input.requesterId),
        eq(legacyReleases.status, 'waiting'),
      ),
    )
    .returning();
  return row;
}

/** Waiting releases whose requester's account is gone, now cancelled: nobody is left who asked. */
export async function cancelOrphanedReleases(
  db: DbOrTx,
  input: { now: Date; limit: number },
): Promise<LegacyReleaseRow[]> {
  const orphans = db
    .select({ id: legacyReleases.id })
    .from(legacyReleases)
    .where(and(eq(legacyReleases.status, 'waiting'), isNull(legacyReleases.requestedById)))
    .limit(input.limit)
    .for('update', { skipLocked: true });
  return db
    .update(legacyReleases)
    .set({ status: 'cancelled', cancelledAt: input.now, cancelledBy: 'requester_removed' })
    .where(and(inArray(legacyReleases.id, orphans), eq(legacyReleases.status, 'waiting')))
    .returning();
}
