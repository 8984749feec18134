import { and, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { deviceTransfers, videos } from '../../db/schema';

export type TransferRow = typeof deviceTransfers.$inferSelect;

export async function insertTransfer(
  db: DbOrTx,
  values: typeof deviceTransfers.$inferInsert,
): Promise<TransferRow> {
  const [row] = await db.insert(deviceTransfers).values(values).returning();
  return row!;
}

export async function findTransferByLookupHash(
  db: DbOrTx,
  lookupHash: string,
): Promise<TransferRow | undefined> {
  const [row] = await db
    .select()
    .from(deviceTransfers)
    .where(eq(deviceTransfers.lookupHash, lookupHash));
  return row;
}

export async function findTransferById(db: DbOrTx, id: string): Promise<TransferRow | undefined> {
  const [row] = await db.select().from(deviceTransfers).where(eq(deviceTransfers.id, id));
  return row;
}

/**
 * The new device takes an offer nobody has taken yet: one statement, so two devices racing for
 * the same code cannot both win. Answers the row, or undefined when another device was first.
 */
export async function claimTransfer(
  db: DbOrTx,
  input: { id: string; receiverDeviceId: string; now: Date; resumeUntil: Date },
): Promise<TransferRow | undefined> {
  const [row] = await db
    .update(deviceTransfers)
    .set({
      receiverDeviceId: input.receiverDeviceId,
      claimedAt: input.now,
      expiresAt: input.resumeUntil,
    })
    .where(and(eq(deviceTransfers.id, input.id), isNull(deviceTransfers.receiverDeviceId)))
    .returning();
  return row;
}

/** The new device's offer starts a new attempt; an answer to an older one no longer counts. */
export async function startAttempt(
  db: DbOrTx,
  id: string,
  description: string,
): Promise<TransferRow | undefined> {
  const [row] = await db
    .update(deviceTransfers)
    .set({
      attempt: sql`${deviceTransfers.attempt} + 1`,
      offerDescription: description,
      answerDescription: null,
    })
    .where(eq(deviceTransfers.id, id))
    .returning();
  return row;
}

/** The old device's answer, kept only if it answers the newest attempt. */
export async function answerAttempt(
  db: DbOrTx,
  input: { id: string; attempt: number; description: string },
): Promise<boolean> {
  const rows = await db
    .update(deviceTransfers)
    .set({ answerDescription: input.description })
    .where(and(eq(deviceTransfers.id, input.id), eq(deviceTransfers.attempt, input.attempt)))
    .returning({ id: deviceTransfers.id });
  return rows.length > 0;
}

/** Finished: the handshake is forgotten, the row stays for the dates. */
export async function finishTransfer(db: DbOrTx, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(deviceTransfers)
    .set({ finishedAt: now, offerDescription: null, answerDescription: null })
    .where(and(eq(deviceTransfers.id, id), isNull(deviceTransfers.finishedAt)))
    .returning({ id: deviceTransfers.id });
  return rows.length > 0;
}

/** The index rows of the messages that arrived now name the new device as the one keeping them. */
export async function moveIndexRowsToDevice(
  db: DbOrTx,
  input: { creatorId: number; videoIds: readonly string[]; deviceId: string; now: Date },
): Promise<number> {
  if (input.videoIds.length === 0) return 0;
  const rows = await db
    .update(videos)
    .set({ deviceId: input.deviceId, updatedAt: input.now })
    .where(and(eq(videos.creatorId, input.creatorId), inArray(videos.id, [...input.videoIds])))
    .returning({ id: videos.id });
  return rows.length;
}

/**
 * Forgets the transfers whose time is over: offers nobody took, and moves past their hours to
 * resume, finished or not (the owner's log keeps when each happened). Answers how many went.
 */
export async function deleteExpiredTransfers(db: DbOrTx, now: Date): Promise<number> {
  const rows = await db
    .delete(deviceTransfers)
    .where(lte(deviceTransfers.expiresAt, now))
    .returning({ id: deviceTransfers.id });
  return rows.length;
}
