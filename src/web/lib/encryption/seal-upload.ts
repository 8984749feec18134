import { UPLOAD_PART_BYTES } from '@shared/schemas/cloud-messages';
import { WRAP_LABEL_PARTS } from '@shared/schemas/encryption';
import {
  generateContentKey,
  partCount,
  SEALED_MEDIA_TYPE,
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

/** A recording's cloud copy, sealed: the bytes to send and the content key for its owner. */
export interface TSealedCopy {
  blob: Blob;
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
 * Seals a recording for the cloud, one upload part at a time: each part is exactly the whole
 * segments the server's part of the same number holds, so a part's checksum is of what is sent.
 */
export async function sealForUpload(input: {
  videoId: string;
  userId: number;
  blob: Blob;
  accountKey: CryptoKey;
}): Promise<TSealedCopy> {
  // Throws unless a part holds whole segments: parts would otherwise cut a segment in two.
  segmentsPerPart(UPLOAD_PART_BYTES);
  const { videoId, userId, blob, accountKey } = input;
  const { sealing, ownerKeyWrap } = await findOrStartSealing(videoId, userId, blob, accountKey);
  const parts: BlobPart[] = [];
  const count = partCount(blob.size, UPLOAD_PART_BYTES);
  for (let partNumber = 1; partNumber <= count; partNumber++) {
    parts.push(await sealPart(sealing, blob, partNumber, UPLOAD_PART_BYTES));
  }
  return { blob: new Blob(parts, { type: SEALED_MEDIA_TYPE }), keyWrap: ownerKeyWrap };
}

/** Once the copy is in the cloud, its sealing is no longer needed here. */
export async function forgetSealing(videoId: string): Promise<void> {
  await localDb.sealings.delete(videoId);
}
