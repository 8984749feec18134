import type { Readable } from 'node:stream';
import { cloudQuotaFor } from '../../../shared/domain/plan-limits';
import {
  CLOUD_MESSAGES,
  MAX_SIGN_BATCH,
  type TCreateUploadBody,
  type TCreateUploadResult,
  type TSignPartsResult,
} from '../../../shared/schemas/cloud';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { can, Permission, refusal, requireAccess } from '../access/access';
import type { Actor } from '../access/actor';
import type { RequestContext } from '../audit/audit.service';
import { requireCopyForm } from '../encryption/encryption.service';
import { recipientWrapForUpload } from '../recipients/sealed-cards';
import { findVideoById, type VideoRow } from '../videos/videos.repository';
import {
  claimUploadForCompletion,
  findActiveUploadForVideo,
  findUploadById,
  insertActiveUpload,
  keepRecipientWrap,
  markVideoLocalOnly,
  markVideoPending,
  narrowLeftovers,
  releaseUploadClaim,
  setUploadStatus,
  sumCloudBytes,
  type CloudLeftovers,
  type UploadRow,
} from './uploads.repository';
import {
  compositeSha256,
  CopyMismatchError,
  FileVideoStore,
  newObjectKey,
  partBytes,
  PartSizeError,
  type SentPart,
} from './video-store';
import { lockForTransaction } from '../../db/locks';
import { requireOpenableReplacement, swapInCompletedCopy } from './reseal.service';

/** The part of the app's dependencies this service uses. */
type Deps = Pick<AppDeps, 'clock' | 'db' | 'log' | 'uploadPartBytes' | 'videoStore'>;

type CreateUploadInput = Omit<TCreateUploadBody, 'promptId'> & { promptId: string | null };

/** The S3 store checks each part against the device's SHA-256; file mode hashes the whole. */
const needsPartChecksums = (deps: Deps) => deps.videoStore.mode === 's3';

/** Signed URLs for these parts of the upload (file mode: its own part endpoint). */
function signedParts(
  deps: Deps,
  upload: UploadRow,
  partNumbers: readonly number[],
  sha256s?: readonly string[],
) {
  return Promise.all(
    partNumbers.map(async (partNumber, index) => ({
      partNumber,
      ...(await deps.videoStore.signPart(upload, {
        partNumber,
        bytes: partBytes(upload, partNumber),
        sha256: sha256s?.[index] ?? null,
      })),
    })),
  );
}

/**
 * The upload under way, in file mode with the first parts already signed (one round trip fewer);
 * an S3 link binds its part's checksum, which only the sign step is told.
 */
export async function toUploading(deps: Deps, upload: UploadRow): Promise<TCreateUploadResult> {
  const signable = needsPartChecksums(deps) ? 0 : upload.partCount;
  const first = Array.from({ length: Math.min(signable, MAX_SIGN_BATCH) }, (_, i) => i + 1);
  return {
    state: 'uploading',
    videoId: upload.videoId,
    uploadId: upload.id,
    partSize: upload.partSize,
    partCount: upload.partCount,
    needsPartChecksums: needsPartChecksums(deps),
    parts: await signedParts(deps, upload, first),
  };
}

/**
 * An upload the actor may touch, still under way; else a 404 that names nothing. Every step asks
 * again, with the owner as read on this request: an upload whose owner has lost cloud sync
 * meanwhile ends here (its bytes no longer held).
 */
async function requireOwnUpload(
  deps: Deps,
  actor: Actor,
  uploadId: string,
  statuses: ReadonlyArray<UploadRow['status']> = ['active', 'completing'],
): Promise<UploadRow> {
  const upload = await findUploadById(deps.db, uploadId);
  if (!upload || !statuses.includes(upload.status)) throw refusal(Permission.UploadTouch);
  requireAccess(actor, Permission.UploadTouch, upload);
  if (!can(actor, Permission.CloudSync)) {
    if (upload.status === 'active') await abortUploadRow(deps, upload);
    throw refusal(Permission.CloudSync);
  }
  return upload;
}

/**
 * Starts sending one indexed video to the cloud, or answers the upload already under way (a
 * resumed upload keeps its id, so the device's stored part ETags stay good). Refuses free plans
 * (Community Edition never sends video bytes) and a full quota, with a plain message.
 */
export async function createUpload(
  deps: Deps,
  input: {
    actor: Actor;
    body: CreateUploadInput;
    /** A phone's sealed copy: its content key under the pairing key (the phone's route alone). */
    pairingKeyWrap?: string | null;
  },
): Promise<TCreateUploadResult> {
  const { actor, body } = input;
  requireAccess(actor, Permission.MessageAdd);
  requireAccess(actor, Permission.CloudSync);
  const owner = actor.user;
  const sealedKeyWrap = body.sealed?.keyWrap ?? null;
  const pairingKeyWrap = input.pairingKeyWrap ?? null;
  await requireCopyForm(deps, {
    userId: owner.id,
    sealedKeyWrap,
    pairingId: actor.pairingId,
    pairingKeyWrap,
  });

  const video = await findVideoById(deps.db, body.videoId);
  if (!video || video.creatorId !== owner.id) {
    throw new AppError('NOT_FOUND', CLOUD_MESSAGES.videoNotFound);
  }
  if (video.syncStatus === 'synced' && video.sha256 === body.sha256) {
    return { state: 'synced', videoId: video.id };
  }
  const forRecipient = await recipientWrapForUpload(
    deps.db,
    video.recipientId,
    body.sealed?.recipientKeyWrap,
  );
  requireOpenableReplacement(video, { sealedKeyWrap, ...forRecipient });

  const existing = await findActiveUploadForVideo(deps.db, video.id);
  if (existing) {
    // A copy sent part by part declares no checksum: its size names it, and a sealed one's key
    // wrap (new with every sealing); each part is checked against its SHA-256 on completion.
    const isSameCopy =
      (existing.sha256 ?? undefined) === body.sha256 &&
      existing.byteSize === body.byteSize &&
      existing.sealedKeyWrap === sealedKeyWrap &&
      existing.pairingKeyWrap === pairingKeyWrap;
    // The same bytes resume; a wrap for a card made since is kept in place of the old one.
    if (isSameCopy) {
      return toUploading(deps, await keepRecipientWrap(deps.db, existing, forRecipient));
    }
    // The device now holds different bytes for this message (a restore, say): start afresh.
    await abortUploadRow(deps, existing);
  }

  const partSize = deps.uploadPartBytes;
  const partCount = Math.max(1, Math.ceil(body.byteSize / partSize));
  const objectKey = newObjectKey();
  const { storeUploadId } = await deps.videoStore.createMultipart(objectKey, video.mimeType);

  const created = await deps.db.transaction(async (tx) => {
    await lockForTransaction(tx, 'uploadAdmission', owner.id);
    const { usedBytes } = await sumCloudBytes(tx, owner.id);
    if (usedBytes + body.byteSize > cloudQuotaFor(owner)) {
      throw new AppError('STORAGE_FULL', CLOUD_MESSAGES.storageFull);
    }
    const row = await insertActiveUpload(tx, {
      videoId: video.id,
      userId: owner.id,
      deviceId: actor.deviceId,
      pairingId: actor.pairingId,
      objectKey,
      storeUploadId,
      byteSize: body.byteSize,
      partSize,
      partCount,
      sha256: body.sha256 ?? null,
      sealedKeyWrap,
      pairingKeyWrap,
      ...forRecipient,
    });
    if (row)
      await markVideoPending(
        tx,
        video.id,
        { title: body.title, promptId: body.promptId },
        deps.clock.now(),
      );
    return row;
  });
  if (created) return toUploading(deps, created);

  // Another request for the same video won the race: answer its upload and drop ours.
  await deps.videoStore.abortMultipart({ id: '', objectKey, storeUploadId }).catch(() => undefined);
  const winner = await findActiveUploadForVideo(deps.db, video.id);
  if (!winner) throw new AppError('CONFLICT', CLOUD_MESSAGES.alreadyUploading);
  return toUploading(deps, winner);
}

export async function signParts(
  deps: Deps,
  actor: Actor,
  uploadId: string,
  body: { partNumbers: readonly number[]; sha256s?: readonly string[] | undefined },
): Promise<TSignPartsResult> {
  requireAccess(actor, Permission.MessageAdd);
  const upload = await requireOwnUpload(deps, actor, uploadId, ['active']);
  if (body.partNumbers.some((number) => number > upload.partCount)) {
    throw new AppError('VALIDATION', `This upload has ${upload.partCount} parts.`, {
      partNumbers: `This upload has ${upload.partCount} parts.`,
    });
  }
  if (needsPartChecksums(deps) && !body.sha256s) {
    throw new AppError('VALIDATION', CLOUD_MESSAGES.partChecksumsNeeded, {
      sha256s: CLOUD_MESSAGES.partChecksumsNeeded,
    });
  }
  const checksums = new Map(body.partNumbers.map((number, i) => [number, body.sha256s?.[i]]));
  const wanted = [...checksums.keys()].sort((a, b) => a - b);
  const sha256s = body.sha256s ? wanted.map((number) => checksums.get(number)!) : undefined;
  return { parts: await signedParts(deps, upload, wanted, sha256s) };
}

/** File mode's part endpoint: exactly the part's bytes, or nothing is kept. */
export async function receivePart(
  deps: Deps,
  actor: Actor,
  input: { uploadId: string; partNumber: number; body: Readable },
): Promise<string> {
  requireAccess(actor, Permission.MessageAdd);
  const store = deps.videoStore;
  if (!(store instanceof FileVideoStore))
    throw new AppError('NOT_FOUND', CLOUD_MESSAGES.uploadNotFound);
  const upload = await requireOwnUpload(deps, actor, input.uploadId, ['active']);
  if (input.partNumber > upload.partCount) {
    throw new AppError('VALIDATION', CLOUD_MESSAGES.partSizeWrong);
  }
  try {
    return await store.writePart(
      upload,
      input.partNumber,
      input.body,
      partBytes(upload, input.partNumber),
    );
  } catch (error) {
    if (error instanceof PartSizeError)
      throw new AppError('VALIDATION', CLOUD_MESSAGES.partSizeWrong);
    // The upload ended (its folder went) while this part was on the way.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new AppError('NOT_FOUND', CLOUD_MESSAGES.uploadNotFound);
    throw error;
  }
}

/**
 * Joins the parts and compares what the store holds with what the device computed (file mode:
 * the SHA-256 of the joined file; S3: each part's length and checksum in the store's listing):
 * only a byte-identical copy makes the message 'synced'.
 */
export async function completeUpload(
  deps: Deps,
  context: RequestContext,
  actor: Actor,
  input: { uploadId: string; parts: readonly SentPart[] },
): Promise<VideoRow> {
  requireAccess(actor, Permission.MessageAdd);
  const upload = await requireOwnUpload(deps, actor, input.uploadId);
  // Enhanced encryption turned on while a plain copy was on its way: it is never kept.
  await requireCopyForm(deps, upload).catch(async (error: unknown) => {
    await abortUploadRow(deps, upload);
    throw error;
  });
  const parts = [...input.parts].sort((a, b) => a.partNumber - b.partNumber);
  const isComplete =
    parts.length === upload.partCount &&
    parts.every((part, index) => part.partNumber === index + 1);
  if (!isComplete) throw new AppError('VALIDATION', CLOUD_MESSAGES.partsMissing);
  // The store checks each part, or the copy was declared part by part (sealed while sent).
  const isCheckedByParts = needsPartChecksums(deps) || upload.sha256 === null;
  if (isCheckedByParts && parts.some((part) => !part.sha256)) {
    throw new AppError('VALIDATION', CLOUD_MESSAGES.partChecksumsNeeded);
  }

  const store = deps.videoStore;
  if (store instanceof FileVideoStore) {
    const arrived = await Promise.all(parts.map((part) => store.hasPart(upload, part.partNumber)));
    const missing = parts.find((_part, index) => !arrived[index]);
    if (missing) {
      throw new AppError('VALIDATION', CLOUD_MESSAGES.partsMissing, {
        [`parts.${missing.partNumber}`]: CLOUD_MESSAGES.partsMissing,
      });
    }
  }

  const claimed = await claimUploadForCompletion(deps.db, upload.id, deps.clock.now());
  if (!claimed) throw new AppError('CONFLICT', CLOUD_MESSAGES.alreadyUploading);

  let stored;
  try {
    stored = await store.completeMultipart(claimed, parts, claimed);
  } catch (error) {
    if (error instanceof CopyMismatchError) {
      await abortUploadRow(deps, claimed);
      throw new AppError('CONFLICT', CLOUD_MESSAGES.checksumMismatch);
    }
    await releaseUploadClaim(deps.db, claimed.id);
    throw error;
  }

  const declared = claimed.sha256 ?? compositeSha256(parts.map((part) => part.sha256 ?? ''));
  if (stored.sha256 !== declared || stored.byteSize !== claimed.byteSize) {
    await store.deleteObject(claimed.objectKey);
    await deps.db.transaction(async (tx) => {
      await setUploadStatus(tx, claimed.id, 'aborted', deps.clock.now());
      await markVideoLocalOnly(tx, claimed.videoId, deps.clock.now());
    });
    throw new AppError('CONFLICT', CLOUD_MESSAGES.checksumMismatch);
  }

  return swapInCompletedCopy(deps, context, claimed, stored);
}

async function abortUploadRow(deps: Deps, upload: UploadRow): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await setUploadStatus(tx, upload.id, 'aborted', deps.clock.now());
    await markVideoLocalOnly(tx, upload.videoId, deps.clock.now());
  });
  // The row is what counts; a store that cannot abort keeps orphaned parts until its own
  // lifecycle rule clears them (README: S3 mode).
  await deps.videoStore
    .abortMultipart(upload)
    .catch((error: unknown) =>
      deps.log.warn({ err: error }, 'the store could not abort an upload'),
    );
}

export async function abortUpload(deps: Deps, actor: Actor, uploadId: string): Promise<void> {
  requireAccess(actor, Permission.MessageAdd);
  await abortUploadRow(deps, await requireOwnUpload(deps, actor, uploadId));
}

/**
 * Deletes the cloud objects and unfinished uploads of deleted videos: call it after the deleting
 * transaction commits, with what `findCloudLeftovers` answered inside it. A failure is logged,
 * not thrown: the rows are already gone, so nobody can reach the bytes, and the nightly sweep
 * removes what is left.
 */
export async function removeCloudCopies(
  deps: Deps,
  leftovers: CloudLeftovers,
  deletedIds: readonly string[],
): Promise<void> {
  const { objects, uploads } = narrowLeftovers(leftovers, deletedIds);
  const work = [
    ...objects.map((object) => deps.videoStore.deleteObject(object.key)),
    ...uploads.map((upload) => deps.videoStore.abortMultipart(upload)),
  ];
  const results = await Promise.allSettled(work);
  const failed = results.filter((result) => result.status === 'rejected').length;
  if (failed > 0)
    deps.log.warn({ failed }, 'cloud copies of deleted videos could not all be removed');
}
