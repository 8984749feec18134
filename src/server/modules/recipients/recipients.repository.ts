import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { definePrepared } from '../../db/prepared';
import { users, videos } from '../../db/schema';
import type { UserRow } from '../users/users.repository';

const RECIPIENT_CATEGORIES = ['next_of_kin', 'family', 'friend'] as const;

/** One of this owner's recipients, or nothing: every lookup is scoped to the owner (no IDOR). */
export async function findRecipientOf(
  db: DbOrTx,
  ownerId: number,
  recipientId: number,
): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(
      and(
        eq(users.id, recipientId),
        eq(users.createdById, ownerId),
        inArray(users.category, [...RECIPIENT_CATEGORIES]),
      ),
    );
  return row;
}

const recipientsWithVideoCounts = definePrepared((db) =>
  db
    .select({
      // What the recipients page and the phone's pairing show; no hashes or bookkeeping.
      recipient: {
        id: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
        category: users.category,
        phoneNumber: users.phoneNumber,
        relationship: users.relationship,
        createdAt: users.createdAt,
      },
      videoCount: sql<number>`count(${videos.id})::int`,
    })
    .from(users)
    .leftJoin(
      videos,
      and(eq(videos.recipientId, users.id), eq(videos.creatorId, sql.placeholder('ownerId'))),
    )
    .where(
      and(
        eq(users.createdById, sql.placeholder('ownerId')),
        inArray(users.category, [...RECIPIENT_CATEGORIES]),
      ),
    )
    .groupBy(users.id)
    .orderBy(users.id)
    .prepare('recipients_with_video_counts'),
);

/** The owner's recipients with the number of indexed videos for each, in one query. */
export function findRecipientsWithVideoCounts(db: DbOrTx, ownerId: number) {
  return recipientsWithVideoCounts(db).execute({ ownerId });
}
