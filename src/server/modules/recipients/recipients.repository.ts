import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { jsonArray } from '../../db/json-rows';
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

/** What the recipients page and the phone's pairing show; no hashes or bookkeeping. */
const RECIPIENT_LIST_COLUMNS = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  category: users.category,
  phoneNumber: users.phoneNumber,
  relationship: users.relationship,
  createdAt: users.createdAt,
};

/** As one JSON array (decision 032); each recipient's count read from videos_recipient_idx. */
const recipientsWithVideoCounts = definePrepared((db) =>
  db
    .select({
      rows: jsonArray(
        {
          ...RECIPIENT_LIST_COLUMNS,
          videoCount: sql<number>`(select count(*) from ${videos} where ${videos.recipientId} = ${users.id} and ${videos.creatorId} = ${sql.placeholder('ownerId')})::int`,
        },
        sql`${users.id}`,
      ),
    })
    .from(users)
    .where(
      and(
        eq(users.createdById, sql.placeholder('ownerId')),
        inArray(users.category, [...RECIPIENT_CATEGORIES]),
      ),
    )
    .prepare('recipients_with_video_counts'),
);

/** The owner's recipients with the number of indexed videos for each, in one query. */
export async function findRecipientsWithVideoCounts(db: DbOrTx, ownerId: number) {
  const [result] = await recipientsWithVideoCounts(db).execute({ ownerId });
  return result?.rows ?? [];
}
