import { MAX_SIGN_BATCH } from '@shared/schemas/cloud-messages';
import type { TSignPartsResult, TSignedPart } from '@shared/schemas/cloud';

/**
 * The parts still to send, in order, each with the URL to PUT it to: the ones the upload's start
 * already signed are used as they are, the rest are signed a batch at a time as they come up.
 */
export async function* partsToSend(
  missing: readonly number[],
  signedAtStart: readonly TSignedPart[],
  sign: (partNumbers: number[]) => Promise<TSignPartsResult>,
): AsyncGenerator<TSignedPart> {
  const ready = new Map(signedAtStart.map((part) => [part.partNumber, part]));
  for (let offset = 0; offset < missing.length; offset += MAX_SIGN_BATCH) {
    const batch = missing.slice(offset, offset + MAX_SIGN_BATCH);
    const parts = batch.every((partNumber) => ready.has(partNumber))
      ? batch.map((partNumber) => ready.get(partNumber)!)
      : (await sign(batch)).parts;
    yield* parts;
  }
}
