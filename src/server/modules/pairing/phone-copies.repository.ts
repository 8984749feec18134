import { and, asc, eq, isNotNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { mobilePairings, recipientKeys, videos } from '../../db/schema';

/** A phone's sealed copy waiting for the owner's device, with the wraps that open and rewrap it. */
export interface WaitingPhoneCopyRow {
  videoId: string;
  recipientId: number;
  pairingKeyWrap: string | null;
  pairingKeyId: string | null;
  pairingOwnerWrap: string | null;
  recipientKeyId: string | null;
  recipientOwnerWrap: string | null;
}

/** The owner's waiting phone copies, oldest first; the recipient's card when it is not the owner. */
export async function findWaitingPhoneCopies(
  db: DbOrTx,
  ownerId: number,
  limit: number,
): Promise<WaitingPhoneCopyRow[]> {
  return db
    .select({
      videoId: videos.id,
      recipientId: videos.recipientId,
      pairingKeyWrap: videos.pairingKeyWrap,
      pairingKeyId: mobilePairings.keyId,
      pairingOwnerWrap: mobilePairings.keyWrap,
      recipientKeyId: recipientKeys.keyId,
      recipientOwnerWrap: recipientKeys.ownerWrap,
    })
    .from(videos)
    .innerJoin(
      mobilePairings,
      and(eq(mobilePairings.id, videos.pairingId), eq(mobilePairings.userId, ownerId)),
    )
    .leftJoin(
      recipientKeys,
      and(
        eq(recipientKeys.recipientId, videos.recipientId),
        ne(videos.recipientId, ownerId),
        isNotNull(recipientKeys.ownerWrap),
      ),
    )
    .where(
      and(
        eq(videos.creatorId, ownerId),
        isNotNull(videos.pairingKeyWrap),
        isNotNull(mobilePairings.keyWrap),
      ),
    )
    .orderBy(asc(videos.createdAt))
    .limit(limit);
}

/**
 * The copy's key, now wrapped for the owner (and the recipient's card when it is still the
 * current one), in place of the pairing key's wrap: one statement, so it is never without a wrap
 * that opens it. Answers nothing when the copy waits no more (another device was first).
 */
export async function sealWaitingCopy(
  db: DbOrTx,
  input: {
    ownerId: number;
    videoId: string;
    keyWrap: string;
    recipientKey: { keyId: string; keyWrap: string } | null;
    now: Date;
  },
): Promise<{ id: string } | undefined> {
  const keyId = input.recipientKey?.keyId ?? null;
  const isCardCurrent = sql`exists (select 1 from ${recipientKeys}
    where ${recipientKeys.recipientId} = ${videos.recipientId}
      and ${recipientKeys.keyId} = ${keyId}::uuid)`;
  const [row] = await db
    .update(videos)
    .set({
      sealedKeyWrap: input.keyWrap,
      pairingKeyWrap: null,
      recipientKeyWrap: sql`case when ${isCardCurrent} then ${input.recipientKey?.keyWrap ?? null} end`,
      recipientKeyId: sql`case when ${isCardCurrent} then ${keyId}::uuid end`,
      updatedAt: input.now,
    })
    .where(
      and(
        eq(videos.id, input.videoId),
        eq(videos.creatorId, input.ownerId),
        isNotNull(videos.pairingKeyWrap),
      ),
    )
    .returning({ id: videos.id });
  return row;
}
