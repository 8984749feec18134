import { and, eq, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { asSubquery, jsonArray } from '../../db/json-rows';
import { definePrepared } from '../../db/prepared';
import { users } from '../../db/schema';
import { defineContextRead } from '../auth/request-context.repository';
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

/**
 * The recipients of `ownerId` (a placeholder, or the request's own reader), as one JSON array
 * (decision 032), each with the count of videos the database keeps for it (decision 040). Videos
 * are indexed only for the owner's own recipients (`findRecipientOf`), so a recipient's count is
 * the owner's videos for them.
 */
function recipientsWithVideoCountsOf(db: DbOrTx, ownerId: SQLWrapper) {
  const rows = jsonArray(
    { ...RECIPIENT_LIST_COLUMNS, videoCount: users.videoCount },
    sql`${users.id}`,
  );
  const query = db
    .select({ rows })
    .from(users)
    .where(and(eq(users.createdById, ownerId), inArray(users.category, [...RECIPIENT_CATEGORIES])));
  return { query, rows };
}

const recipientsWithVideoCounts = definePrepared((db) =>
  recipientsWithVideoCountsOf(db, sql.placeholder('ownerId')).query.prepare(
    'recipients_with_video_counts',
  ),
);

/** The recipients page's list, read with the request's own lookups (decision 033). */
export const RECIPIENTS_WITH_VIDEO_COUNTS_READ = defineContextRead('recipients', (db, reader) => {
  const { query, rows } = recipientsWithVideoCountsOf(db, reader.userId);
  return asSubquery(query, rows);
});

/** The owner's recipients with the number of indexed videos for each, in one query. */
export async function findRecipientsWithVideoCounts(db: DbOrTx, ownerId: number) {
  const [result] = await recipientsWithVideoCounts(db).execute({ ownerId });
  return result?.rows ?? [];
}
