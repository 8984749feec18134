import { BlobReader } from '@shared/blob-reader';
import { WRAP_LABEL_PARTS } from '@shared/schemas/encryption';
import {
  generateContentKey,
  sealedSize,
  sealPart,
  segmentsPerPart,
  startSealing,
  unwrapKey,
  wrapKey,
  wrapLabel,
  type TSealing,
} from '@shared/sealing';
import { fromBase64Url, toBase64Url } from '@shared/sealing/bytes';
import { localDb, type TSealingRow } from '@web/lib/videos/local-store';
import { getDeviceKey, thisDeviceId } from './device-keys';
import { outgoingPart, PartBytesLostError, type TWrittenPart } from './outgoing-part';

/**
 * A recording's cloud copy, to be sealed a part at a time as it is sent: the sealing (kept, so a
 * resumed upload seals the same bytes), the sealed size and the content key for its owner.
 */
export interface TSealedCopy {
  sealing: TSealing;
  /** Read a part at a time, into one buffer. */
  recording: BlobReader;
  byteSize: number;
  keyWrap: string;
}

const onDeviceLabel = (videoId: string, deviceId: string) =>
  wrapLabel(...WRAP_LABEL_PARTS.contentOnDevice(videoId, deviceId));

/** The kept sealing of this recording, if this device can still open it. */
async function resumeSealing(row: TSealingRow, blob: Blob): Promise<TSealing | null> {
  const noncePrefix = fromBase64Url(row.noncePrefix);
  if (!noncePrefix) return null;
  try {
    const key = await unwrapKey(
      row.contentKeyWrap,
      await getDeviceKey(),
      onDeviceLabel(row.videoId, row.deviceId),
      'content',
    );
    return startSealing({
      key,
      messageId: row.videoId,
      plaintextLength: blob.size,
      noncePrefix,
    });
  } catch {
    // The device key that wrapped it is gone (storage cleared): the recording is sealed afresh.
    return null;
  }
}

/**
 * The sealing of one recording: made once (a new content key and nonce prefix) and kept, so every
 * later attempt, after a reload or a lost connection, seals the same bytes again. Other bytes
 * under the same id (a recording saved again) get a new key: never one key and prefix over two.
 */
async function findOrStartSealing(
  videoId: string,
  userId: number,
  blob: Blob,
  accountKey: CryptoKey,
): Promise<{ sealing: TSealing; ownerKeyWrap: string }> {
  const kept = await localDb.sealings.get(videoId);
  if (kept && kept.userId === userId && kept.plaintextLength === blob.size) {
    const sealing = await resumeSealing(kept, blob);
    if (sealing) return { sealing, ownerKeyWrap: kept.ownerKeyWrap };
  }
  const key = await generateContentKey();
  const sealing = startSealing({ key, messageId: videoId, plaintextLength: blob.size });
  const deviceId = await thisDeviceId();
  const row: TSealingRow = {
    videoId,
    userId,
    deviceId,
    contentKeyWrap: await wrapKey(key, await getDeviceKey(), onDeviceLabel(videoId, deviceId)),
    ownerKeyWrap: await wrapKey(
      key,
      accountKey,
      wrapLabel(...WRAP_LABEL_PARTS.contentForOwner(videoId)),
    ),
    noncePrefix: toBase64Url(sealing.header.noncePrefix),
    plaintextLength: blob.size,
  };
  await localDb.sealings.put(row);
  return { sealing, ownerKeyWrap: row.ownerKeyWrap };
}

/**
 * The sealed copy of a recording, nothing sealed yet: its sealing is found or made (and kept)
 * here, and each part is sealed only when it is about to be sent.
 */
export async function prepareSealedCopy(input: {
  videoId: string;
  userId: number;
  blob: Blob;
  accountKey: CryptoKey;
}): Promise<TSealedCopy> {
  const { videoId, userId, blob, accountKey } = input;
  const { sealing, ownerKeyWrap } = await findOrStartSealing(videoId, userId, blob, accountKey);
  return {
    sealing,
    recording: new BlobReader(blob),
    byteSize: sealedSize(blob.size),
    keyWrap: ownerKeyWrap,
  };
}

/**
 * Seals parts of the copy for sending (`outgoingPart`), each asked for in order. Part n is exactly
 * the whole segments the server's part n holds, sealed from that part's plaintext alone, with its
 * SHA-256. A part is sealed only after the last one was (the recording is read into one buffer, a
 * part at a time); its hashing and writing out run beside the next part's sealing, and its bytes
 * are given back once written. A part whose bytes the writer lost is sealed again: the same bytes.
 */
export function outgoingPartSealer(
  copy: TSealedCopy,
  partSize: number,
): (partNumber: number) => Promise<TWrittenPart> {
  // Throws unless a part holds whole segments: parts would otherwise cut a segment in two.
  segmentsPerPart(partSize);
  let sealing: Promise<unknown> = Promise.resolve();
  const sealInTurn = (partNumber: number) => {
    const sealed = sealing.then(() => sealPart(copy.sealing, copy.recording, partNumber, partSize));
    sealing = sealed.catch(() => undefined);
    return sealed;
  };
  return async (partNumber) => {
    const part = { videoId: copy.sealing.header.messageId, partNumber };
    try {
      return await outgoingPart(part, await sealInTurn(partNumber));
    } catch (error) {
      if (!(error instanceof PartBytesLostError)) throw error;
      return outgoingPart(part, await sealInTurn(partNumber));
    }
  };
}

/** Once the copy is in the cloud, its sealing is no longer needed here. */
export async function forgetSealing(videoId: string): Promise<void> {
  await localDb.sealings.delete(videoId);
}
