import { and, eq, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { jsonArrayOf, jsonFields } from '../../db/json-rows';
import { definePrepared } from '../../db/prepared';
import { recipientKeys, users } from '../../db/schema';
import { defineCachedContextRead } from '../auth/request-context.repository';
import type { UserRow } from '../users/users.repository';
import { RECIPIENT_CATEGORIES } from '../../../shared/domain/enums';
import type { TRecipientKeyForOwner } from '../../../shared/schemas/encryption';

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

/** The recipient's sealed card as the owner's devices open it (left-joined; null without one). */
const SEALED_KEY = sql<TRecipientKeyForOwner | null>`case when ${recipientKeys.ownerWrap} is null
  then null else json_build_object('keyId', ${recipientKeys.keyId}, 'ownerWrap', ${recipientKeys.ownerWrap},
    'hasEscrow', ${recipientKeys.escrowWrap} is not null) end`;

/** Each with the count of videos the database keeps for it, and their sealed card. */
const RECIPIENT_WITH_COUNT_COLUMNS = {
  ...RECIPIENT_LIST_COLUMNS,
  videoCount: users.videoCount,
  sealedKey: SEALED_KEY,
};

/**
 * The recipients of `ownerId` (a placeholder, or the request's own reader). Videos are indexed
 * only for the owner's own recipients (`findRecipientOf`), so a recipient's count is the owner's
 * videos for them.
 */
function recipientsOf(ownerId: SQLWrapper) {
  return and(eq(users.createdById, ownerId), inArray(users.category, [...RECIPIENT_CATEGORIES]));
}

const recipientsWithVideoCounts = definePrepared((db) =>
  db
    .select(RECIPIENT_WITH_COUNT_COLUMNS)
    .from(users)
    .leftJoin(recipientKeys, eq(recipientKeys.recipientId, users.id))
    .where(recipientsOf(sql.placeholder('ownerId')))
    .orderBy(users.id)
    .prepare('recipients_with_video_counts'),
);

/**
 * The recipients page's list, oldest first, read with the request's own lookups;
 * read only when the owner's lists version is not the one this server last sent the session the
 * list with. A row counts as about 300 characters cached.
 */
export const RECIPIENTS_WITH_VIDEO_COUNTS_READ = defineCachedContextRead(
  'recipients',
  (db, reader) => {
    const row = jsonFields(RECIPIENT_WITH_COUNT_COLUMNS);
    const query = db
      .select({ row })
      .from(users)
      .leftJoin(recipientKeys, eq(recipientKeys.recipientId, users.id))
      .where(recipientsOf(reader.userId))
      .orderBy(users.id);
    return jsonArrayOf(query, row);
  },
  (rows) => rows.length * 300,
);

/** The owner's recipients with the number of indexed videos for each, in one query. */
export function findRecipientsWithVideoCounts(db: DbOrTx, ownerId: number) {
  return recipientsWithVideoCounts(db).execute({ ownerId });
}
