import { CLOUD_MESSAGES } from '@shared/schemas/cloud-messages';
import { ENCRYPTION_MESSAGES, type TRecipientKeyForOwner } from '@shared/schemas/encryption';
import type { TRecipientList } from '@shared/schemas/recipients';
import type { TCreateUploadResult, TSignPartsResult } from '@shared/schemas/cloud';
import type { TVideoIndexEntry } from '@shared/schemas/videos';
import { apiRequest, isApiError, isServerAway } from '@web/lib/api-client';
import {
  deleteLocalUpload,
  getLocalUpload,
  getVideoBlob,
  listVideos,
  putLocalUpload,
  recordPartSent,
  setSyncStatus,
  type TLocalUpload,
  type TLocalVideo,
} from '@web/lib/videos/local-store';
import { indexPendingVideos } from '@web/lib/videos/index-rows';
import { partChecksums } from '@web/lib/part-checksums';
import { partsToSend } from '@web/lib/parts-to-send';
import { getAccountKey } from '@web/lib/encryption/device-keys';
import { fetchEncryptionState } from '@web/lib/encryption/encryption-state';
import { recipientWrapForUpload } from '@web/lib/encryption/owner-cards';
import { forgetSealing, prepareSealedCopy } from '@web/lib/encryption/seal-upload';
import { putPartWithRetry } from './put-part';
import { sendSealedParts } from './send-sealed';
import { RECIPIENTS_QUERY_KEY } from '@web/lib/recipients-api';
import { setSyncProgress } from './sync-progress';

const OFFLINE_MESSAGE =
  'Waiting for a connection to send this to the cloud. It is safe on this device.';

/** Enhanced encryption is on and this device does not hold the account key yet. */
export const WAITING_FOR_UNLOCK_MESSAGE =
  'Waiting for you to unlock sealed messages on this device';

class StopSyncError extends Error {}

/**
 * How this run sends copies: as they are, sealed under the account key (and for each recipient's
 * card, by recipient id), or not yet.
 */
type TSendMode =
  | { kind: 'plain' }
  | { kind: 'sealed'; accountKey: CryptoKey; cards: Map<number, TRecipientKeyForOwner> }
  | { kind: 'locked' };

async function findSendMode(userId: number): Promise<TSendMode> {
  if ((await fetchEncryptionState()).state === 'off') return { kind: 'plain' };
  const accountKey = await getAccountKey(userId);
  if (!accountKey) return { kind: 'locked' };
  return { kind: 'sealed', accountKey, cards: await findCards() };
}

/**
 * Each recipient's card, read afresh each run: a card made a moment ago must open the next
 * message sent. Without the list, messages still go; the Recipients page wraps them later.
 */
async function findCards(): Promise<Map<number, TRecipientKeyForOwner>> {
  const cards = new Map<number, TRecipientKeyForOwner>();
  try {
    const { recipients } = await apiRequest<TRecipientList>(RECIPIENTS_QUERY_KEY[0]);
    for (const recipient of recipients) {
      if (recipient.sealedKey) cards.set(recipient.id, recipient.sealedKey);
    }
  } catch (error) {
    if (isServerAway(error)) throw error;
  }
  return cards;
}

/** The account seals every copy, but this page began the run before it was turned on. */
function isSealedOnlyRefusal(error: unknown): boolean {
  return (
    isApiError(error) && error.status === 409 && error.message === ENCRYPTION_MESSAGES.sealedOnly
  );
}

function partSlice(blob: Blob, upload: TLocalUpload, partNumber: number): Blob {
  const start = (partNumber - 1) * upload.partSize;
  return blob.slice(start, Math.min(blob.size, start + upload.partSize));
}

/**
 * What starting an upload declares of the copy: its size, and a sealed copy's key wraps. Neither
 * kind declares a whole checksum: each part's goes with the upload's completion.
 */
type TCopyToSend = {
  byteSize: number;
  sealed?: { keyWrap: string; recipientKeyWrap?: string | undefined };
};

/** POST /api/uploads; null when the cloud is full (the message says so). */
async function createUpload(
  video: TLocalVideo,
  copy: TCopyToSend,
): Promise<TCreateUploadResult | null> {
  try {
    return await apiRequest<TCreateUploadResult>('/api/uploads', {
      method: 'POST',
      body: {
        videoId: video.id,
        title: video.title,
        promptId: video.promptId,
        ...copy,
      },
    });
  } catch (error) {
    if (isApiError(error) && error.code === 'STORAGE_FULL') {
      setSyncProgress(video.id, { state: 'full', message: CLOUD_MESSAGES.storageFull });
      return null;
    }
    if (isApiError(error) && error.code === 'UPGRADE_REQUIRED') throw new StopSyncError();
    if (isSealedOnlyRefusal(error)) {
      setSyncProgress(video.id, { state: 'waiting', message: ENCRYPTION_MESSAGES.sealedOnly });
      throw new StopSyncError();
    }
    throw error;
  }
}

async function markSynced(videoId: string): Promise<void> {
  await deleteLocalUpload(videoId);
  await forgetSealing(videoId);
  await setSyncStatus(videoId, 'synced');
  setSyncProgress(videoId, null);
}

type TUploading = Extract<TCreateUploadResult, { state: 'uploading' }>;

/** The bookkeeping of this upload kept in this browser, or a fresh one when it is another. */
async function keptUpload(
  videoId: string,
  created: TUploading,
  copy: { sha256: string; keyWrap?: string },
): Promise<TLocalUpload> {
  const stored = await getLocalUpload(videoId);
  const isSame =
    stored?.uploadId === created.uploadId &&
    stored.sha256 === copy.sha256 &&
    stored.keyWrap === copy.keyWrap;
  if (stored && isSame) return stored;
  const upload: TLocalUpload = {
    videoId,
    uploadId: created.uploadId,
    partSize: created.partSize,
    partCount: created.partCount,
    etags: {},
    ...copy,
  };
  await putLocalUpload(upload);
  return upload;
}

/** The bytes of part `partNumber` of a copy of this size. */
const partLength = (upload: TLocalUpload, byteSize: number, partNumber: number) =>
  Math.max(0, Math.min(upload.partSize, byteSize - (partNumber - 1) * upload.partSize));

function showSending(videoId: string, upload: TLocalUpload, etags: object, byteSize: number) {
  const sentBytes = Object.keys(etags).reduce(
    (total, key) => total + partLength(upload, byteSize, Number(key)),
    0,
  );
  setSyncProgress(videoId, { state: 'sending', sentBytes, totalBytes: byteSize });
}

/** The parts not yet sent, or sent without the SHA-256 completing the upload declares. */
function partsStillToSend(
  upload: TLocalUpload,
  etags: Record<number, string>,
  sums: Record<number, string>,
): number[] {
  return Array.from({ length: upload.partCount }, (_, index) => index + 1).filter(
    (partNumber) => !etags[partNumber] || !sums[partNumber],
  );
}

/** Every part sent, with its ETag and SHA-256, as completing the upload lists them. */
const sentParts = (etags: Record<number, string>, sums: Record<number, string>) =>
  Object.entries(etags).map(([partNumber, etag]) => ({
    partNumber: Number(partNumber),
    etag,
    sha256: sums[Number(partNumber)],
  }));

/** Joins the parts on the server, which checks them against what was computed here. */
async function completeUpload(
  videoId: string,
  uploadId: string,
  parts: Array<{ partNumber: number; etag: string; sha256?: string | undefined }>,
): Promise<void> {
  setSyncProgress(videoId, { state: 'checking' });
  try {
    await apiRequest<TVideoIndexEntry>(`/api/uploads/${uploadId}/complete`, {
      method: 'POST',
      body: { parts },
    });
  } catch (error) {
    // The upload ended (or its copy did not match): start afresh next time.
    if (isApiError(error) && (error.code === 'NOT_FOUND' || error.code === 'CONFLICT')) {
      await deleteLocalUpload(videoId);
    }
    throw error;
  }
}

/**
 * Sends one saved message to the cloud, resuming where it stopped: parts whose ETag and SHA-256
 * are kept in this browser are never sent again. The recording is read a part at a time (the next
 * part hashed while this one is sent), never whole; the server checks every part against its
 * SHA-256, and knows the copy by their composite checksum.
 */
async function syncPlain(video: TLocalVideo, blob: Blob): Promise<boolean> {
  const created = await createUpload(video, { byteSize: blob.size });
  if (!created) return false;
  if (created.state === 'synced') {
    await markSynced(video.id);
    return true;
  }
  const upload = await keptUpload(video.id, created, { sha256: '' });
  await setSyncStatus(video.id, 'pending_sync');

  const etags = { ...upload.etags };
  const sums = { ...upload.partSha256s };
  showSending(video.id, upload, etags, blob.size);
  const missing = partsStillToSend(upload, etags, sums);
  const checksums = partChecksums(blob, upload.partSize);
  const sign = async (partNumbers: number[]) =>
    apiRequest<TSignPartsResult>(`/api/uploads/${upload.uploadId}/sign`, {
      method: 'POST',
      body: {
        partNumbers,
        ...(created.needsPartChecksums ? { sha256s: await checksums.of(partNumbers) } : {}),
      },
    });
  // One part at a time: as fast as the link allows here, and a cut connection costs one part.
  for await (const part of partsToSend(missing, created.parts, sign)) {
    const sha256 = await checksums.forSending(part.partNumber);
    const etag = await putPartWithRetry(part, partSlice(blob, upload, part.partNumber));
    etags[part.partNumber] = etag;
    sums[part.partNumber] = sha256;
    await recordPartSent(video.id, part.partNumber, etag, sha256);
    showSending(video.id, upload, etags, blob.size);
  }

  await completeUpload(video.id, upload.uploadId, sentParts(etags, sums));
  await markSynced(video.id);
  return true;
}

/**
 * Sends one saved message sealed, each part sealed as it goes (docs/decisions/078): the upload
 * declares no checksum at its start, each part's SHA-256 is kept here with its ETag, and the
 * server checks every part against it when the upload completes. A resumed upload seals again,
 * byte for byte from the kept key and nonce prefix, only the parts not yet sent.
 */
async function syncSealed(
  video: TLocalVideo,
  recording: Blob,
  mode: Extract<TSendMode, { kind: 'sealed' }>,
): Promise<boolean> {
  const { accountKey } = mode;
  const copy = await prepareSealedCopy({
    videoId: video.id,
    userId: video.creatorId,
    blob: recording,
    accountKey,
  });
  const recipientKeyWrap = await recipientWrapForUpload({
    videoId: video.id,
    ownerKeyWrap: copy.keyWrap,
    accountKey,
    sealedKey: mode.cards.get(video.recipientId),
  });
  const created = await createUpload(video, {
    byteSize: copy.byteSize,
    sealed: { keyWrap: copy.keyWrap, recipientKeyWrap },
  });
  if (!created) return false;
  if (created.state === 'synced') {
    await markSynced(video.id);
    return true;
  }
  const upload = await keptUpload(video.id, created, { sha256: '', keyWrap: copy.keyWrap });
  await setSyncStatus(video.id, 'pending_sync');

  const etags = { ...upload.etags };
  const sums = { ...upload.partSha256s };
  showSending(video.id, upload, etags, copy.byteSize);
  const missing = partsStillToSend(upload, etags, sums);
  await sendSealedParts({
    copy,
    upload: { ...upload, needsPartChecksums: created.needsPartChecksums },
    missing,
    signedAtStart: created.parts,
    onSent: async ({ partNumber, etag, sha256 }) => {
      etags[partNumber] = etag;
      sums[partNumber] = sha256;
      await recordPartSent(video.id, partNumber, etag, sha256);
      showSending(video.id, upload, etags, copy.byteSize);
    },
  });

  await completeUpload(video.id, upload.uploadId, sentParts(etags, sums));
  await markSynced(video.id);
  return true;
}

async function syncVideo(video: TLocalVideo, mode: TSendMode): Promise<boolean> {
  const recording = await getVideoBlob(video);
  if (recording.size === 0) return false;
  return mode.kind === 'sealed' ? syncSealed(video, recording, mode) : syncPlain(video, recording);
}

let running: Promise<number> | null = null;

/**
 * What a run tells its caller besides the count: the page asks the browser to send later, the
 * service worker has the browser try its run again.
 */
export type TSyncHooks = {
  /** A message waits for the connection to come back. */
  onOffline?: () => void;
  /** Another tab or the service worker is sending already. */
  onBusy?: () => void;
};

/**
 * Sends every saved message of this account that is not in the cloud yet, oldest first —
 * recordings made before an upgrade too. One run at a time per tab, and across tabs when the
 * browser has Web Locks. Answers how many reached the cloud.
 */
export function syncPendingVideos(userId: number, hooks: TSyncHooks = {}): Promise<number> {
  running ??= runExclusively(userId, hooks).finally(() => {
    running = null;
  });
  return running;
}

async function runExclusively(userId: number, hooks: TSyncHooks): Promise<number> {
  if (typeof navigator !== 'undefined' && navigator.locks) {
    return navigator.locks.request(`memento-sync-${userId}`, { ifAvailable: true }, (lock) => {
      if (lock) return runOnce(userId, hooks);
      hooks.onBusy?.();
      return 0;
    });
  }
  return runOnce(userId, hooks);
}

async function runOnce(userId: number, hooks: TSyncHooks): Promise<number> {
  await indexPendingVideos(userId);
  const videos = (await listVideos(userId))
    .filter((video) => video.syncStatus !== 'synced' && video.indexedAt !== null)
    .reverse();
  if (videos.length === 0) return 0;
  let mode: TSendMode;
  try {
    mode = await findSendMode(userId);
  } catch (error) {
    if (!isServerAway(error)) throw error;
    for (const video of videos) {
      setSyncProgress(video.id, { state: 'waiting', message: OFFLINE_MESSAGE });
    }
    hooks.onOffline?.();
    return 0;
  }
  if (mode.kind === 'locked') {
    // Not a failure: each message waits, safe on this device, until the device is unlocked.
    for (const video of videos) {
      setSyncProgress(video.id, { state: 'waiting', message: WAITING_FOR_UNLOCK_MESSAGE });
    }
    return 0;
  }
  let synced = 0;
  for (const video of videos) {
    try {
      if (await syncVideo(video, mode)) synced += 1;
    } catch (error) {
      if (error instanceof StopSyncError) return synced;
      // The plan lost cloud sync during this upload: the server ended it; nothing more to send.
      if (isApiError(error) && error.code === 'UPGRADE_REQUIRED') {
        setSyncProgress(video.id, null);
        return synced;
      }
      setSyncProgress(video.id, { state: 'waiting', message: OFFLINE_MESSAGE });
      // Offline or the server is away: the rest waits for the next run.
      if (isServerAway(error) || !isApiError(error)) {
        hooks.onOffline?.();
        return synced;
      }
    }
  }
  return synced;
}
