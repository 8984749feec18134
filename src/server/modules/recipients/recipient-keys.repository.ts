import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { recipientKeys, users, videos } from '../../db/schema';

/** A recipient's sealed card as the server keeps it: wraps it cannot open. */
export type RecipientKeyRow = typeof recipientKeys.$inferSelect;

/** The recipient's current card, or none. */
export async function findRecipientKey(
  db: DbOrTx,
  recipientId: number,
): Promise<RecipientKeyRow | undefined> {
  const [row] = await db
    .select()
    .from(recipientKeys)
    .where(eq(recipientKeys.recipientId, recipientId));
  return row;
}

/** The current card, locked until the transaction ends, so a card and its wraps change together. */
export async function lockRecipientKey(
  db: DbOrTx,
  recipientId: number,
): Promise<RecipientKeyRow | undefined> {
  const [row] = await db
    .select()
    .from(recipientKeys)
    .where(eq(recipientKeys.recipientId, recipientId))
    .for('update');
  return row;
}

/** Makes this card the recipient's one card, in place of any before it. */
export async function putRecipientKey(
  db: DbOrTx,
  values: {
    recipientId: number;
    keyId: string;
    ownerWrap: string;
    codeWrap: string;
    escrowWrap: string | null;
    now: Date;
  },
): Promise<void> {
  const card = {
    keyId: values.keyId,
    ownerWrap: values.ownerWrap,
    codeWrap: values.codeWrap,
    // An old card's escrow opens with the old code: it goes with it.
    escrowWrap: values.escrowWrap,
    createdAt: values.now,
  };
  await db
    .insert(recipientKeys)
    .values({ recipientId: values.recipientId, ...card })
    .onConflictDoUpdate({ target: recipientKeys.recipientId, set: card });
}

/** The owner's messages for this recipient that no card of theirs opens any more. */
export async function clearRecipientWraps(
  db: DbOrTx,
  input: { ownerId: number; recipientId: number },
): Promise<void> {
  await db
    .update(videos)
    .set({ recipientKeyWrap: null, recipientKeyId: null })
    .where(
      and(
        eq(videos.creatorId, input.ownerId),
        eq(videos.recipientId, input.recipientId),
        isNotNull(videos.recipientKeyId),
      ),
    );
}

/** The owner's sealed messages for this recipient, oldest first, with whose card opens each. */
export function findSealedMessagesFor(db: DbOrTx, input: { ownerId: number; recipientId: number }) {
  return db
    .select({
      videoId: videos.id,
      keyWrap: sql<string>`${videos.sealedKeyWrap}`,
      recipientKeyId: videos.recipientKeyId,
    })
    .from(videos)
    .where(
      and(
        eq(videos.creatorId, input.ownerId),
        eq(videos.recipientId, input.recipientId),
        isNotNull(videos.sealedKeyWrap),
      ),
    )
    .orderBy(asc(videos.createdAt), asc(videos.id));
}

/**
 * Stores each message's wrap for the recipient's card `keyId`, in one statement, on the owner's
 * sealed messages for that recipient only; answers the ids it stored, so the caller can tell
 * whether every message named was one of them.
 */
export async function storeRecipientWraps(
  db: DbOrTx,
  input: {
    ownerId: number;
    recipientId: number;
    keyId: string;
    wraps: ReadonlyArray<{ videoId: string; recipientKeyWrap: string }>;
  },
): Promise<string[]> {
  const rows = sql.join(
    input.wraps.map((wrap) => sql`(${wrap.videoId}::uuid, ${wrap.recipientKeyWrap}::text)`),
    sql`, `,
  );
  const stored = await db
    .update(videos)
    .set({ recipientKeyWrap: sql`sent.wrap`, recipientKeyId: input.keyId })
    .from(sql`(values ${rows}) as sent(id, wrap)`)
    .where(
      and(
        sql`${videos.id} = sent.id`,
        eq(videos.creatorId, input.ownerId),
        eq(videos.recipientId, input.recipientId),
        isNotNull(videos.sealedKeyWrap),
      ),
    )
    .returning({ id: videos.id });
  return stored.map((row) => row.id);
}

/** Each of the owner's recipients' current card that the owner's key opens (a wrap in hand). */
export function findCardsOfOwner(db: DbOrTx, ownerId: number) {
  return db
    .select({
      recipientId: recipientKeys.recipientId,
      keyId: recipientKeys.keyId,
      ownerWrap: recipientKeys.ownerWrap,
    })
    .from(recipientKeys)
    .innerJoin(users, eq(users.id, recipientKeys.recipientId))
    .where(and(eq(users.createdById, ownerId), isNotNull(recipientKeys.ownerWrap)))
    .orderBy(asc(recipientKeys.recipientId));
}
