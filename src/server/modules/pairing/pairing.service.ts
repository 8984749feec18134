import {
  PAIRING_MESSAGES,
  PAIRING_MINUTES,
  type TCreatePairingBody,
  type TCurrentPairing,
  type TPairingCreated,
  type TPairingSession,
  type TPairingVideoBody,
} from '../../../shared/schemas/pairing';
import type { TCreateUploadResult } from '../../../shared/schemas/cloud';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { randomToken, sha256 } from '../../lib/crypto';
import { recordAudit, type RequestContext } from '../audit/audit.service';
import { Permission, requireAccess } from '../access/access';
import type { Actor } from '../access/actor';
import { findActiveUploadForVideo } from '../cloud/uploads.repository';
import { requirePairingKeyRule, requirePhoneCopyForm } from '../encryption/encryption.service';
import { createUpload, toUploading } from '../cloud/uploads.service';
import { findRecipientsWithVideoCounts } from '../recipients/recipients.repository';
import { findUserById, type SessionUser } from '../users/users.repository';
import type { VideoRow } from '../videos/videos.repository';
import { indexVideo } from '../videos/videos.service';
import {
  cancelPairings,
  countPairingUpload,
  findLatestLivePairing,
  findLivePairingByTokenHash,
  insertPairing,
  type PairingRow,
} from './pairing.repository';

/** The part of the app's dependencies this service uses. */
type Deps = Pick<AppDeps, 'clock' | 'config' | 'db' | 'log' | 'uploadPartBytes' | 'videoStore'>;

const idInUse = () =>
  new AppError('CONFLICT', PAIRING_MESSAGES.idInUse, { id: PAIRING_MESSAGES.idInUse });

/**
 * The primary device pairs a phone for 15 minutes; an earlier live pairing ends. With enhanced
 * encryption on it brings the pairing key wrapped under the account key (the key itself goes to
 * the phone in the link's fragment, which the browser adds: never here).
 */
export async function createPairing(
  deps: Deps,
  context: RequestContext,
  input: { actor: Actor; body: TCreatePairingBody },
): Promise<TPairingCreated> {
  const { actor } = input;
  requireAccess(actor, Permission.PairingManage);
  requireAccess(actor, Permission.PhoneImport);
  const owner = actor.user;
  const pairingKey = input.body?.pairingKey;
  await requirePairingKeyRule(deps, owner.id, pairingKey);
  const token = randomToken();
  const pairing = await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    await cancelPairings(tx, owner.id, now);
    const row = await insertPairing(tx, {
      userId: owner.id,
      createdByDeviceId: context.deviceId,
      tokenHash: sha256(token),
      expiresAt: new Date(now.getTime() + PAIRING_MINUTES * 60_000),
      keyId: pairingKey?.keyId ?? null,
      keyWrap: pairingKey?.ownerWrap ?? null,
    });
    await recordAudit(tx, context, {
      eventType: 'pairing_created',
      userId: owner.id,
      username: owner.username,
      details: { message: `A phone may send videos for ${PAIRING_MINUTES} minutes` },
    });
    return row;
  });
  return {
    pairingId: pairing.id,
    url: `${deps.config.APP_URL}/import-from-mobile#pair=${token}`,
    expiresAt: pairing.expiresAt.toISOString(),
  };
}

export async function getCurrentPairing(deps: Deps, actor: Actor): Promise<TCurrentPairing> {
  requireAccess(actor, Permission.PairingManage);
  const pairing = await findLatestLivePairing(deps.db, actor.user.id, deps.clock.now());
  return {
    pairing: pairing
      ? {
          id: pairing.id,
          expiresAt: pairing.expiresAt.toISOString(),
          uploadsCount: pairing.uploadsCount,
        }
      : null,
  };
}

export async function cancelPairing(
  deps: Deps,
  context: RequestContext,
  input: { actor: Actor; pairingId: string },
): Promise<void> {
  requireAccess(input.actor, Permission.PairingManage);
  const owner = input.actor.user;
  const ended = await cancelPairings(deps.db, owner.id, deps.clock.now(), input.pairingId);
  if (ended === 0) throw new AppError('NOT_FOUND', PAIRING_MESSAGES.ended);
  await recordAudit(deps.db, context, {
    eventType: 'pairing_cancelled',
    userId: owner.id,
    username: owner.username,
    details: { message: 'The phone pairing was cancelled' },
  });
}

/**
 * The phone's credential: the pairing token in its header, checked on every call (live, not
 * cancelled). A refused token is audited in the owner's log when the owner is known.
 */
export async function resolvePairing(
  deps: Deps,
  header: string | string[] | undefined,
): Promise<{ pairing: PairingRow; owner: SessionUser } | null> {
  if (typeof header !== 'string' || header.length === 0) return null;
  const pairing = await findLivePairingByTokenHash(
    deps.db,
    sha256(header.slice(0, 200)),
    deps.clock.now(),
  );
  const owner = pairing ? await findUserById(deps.db, pairing.userId) : undefined;
  if (!pairing || !owner) throw new AppError('UNAUTHENTICATED', PAIRING_MESSAGES.ended);
  return { pairing, owner };
}

export async function requirePairing(deps: Deps, header: string | string[] | undefined) {
  const resolved = await resolvePairing(deps, header);
  if (!resolved) throw new AppError('UNAUTHENTICATED', PAIRING_MESSAGES.ended);
  return resolved;
}

/** The phone's view: whose account, until when, and recipients' names to choose from. */
export async function getPairingSession(
  deps: Deps,
  resolved: { pairing: PairingRow; owner: SessionUser },
): Promise<TPairingSession> {
  const rows = await findRecipientsWithVideoCounts(deps.db, resolved.owner.id);
  return {
    ownerFirstName: resolved.owner.firstName,
    expiresAt: resolved.pairing.expiresAt.toISOString(),
    recipients: rows.map((recipient) => ({
      id: recipient.id,
      firstName: recipient.firstName,
      lastName: recipient.lastName,
      category: recipient.category,
    })),
    pairingKeyId: resolved.pairing.keyId,
  };
}

/**
 * The phone asking again for a video it sent on this pairing, its answer lost: the upload this
 * pairing started for it, still under way, with the same size, type and bytes declared. Anything
 * else with an id in use is refused.
 */
async function answerRetry(
  deps: Deps,
  resolved: { pairing: PairingRow; owner: SessionUser },
  body: TPairingVideoBody,
  video: VideoRow,
): Promise<TCreateUploadResult> {
  const upload = await findActiveUploadForVideo(deps.db, video.id);
  const isSameRequest =
    upload !== undefined &&
    upload.status === 'active' &&
    upload.pairingId === resolved.pairing.id &&
    upload.userId === resolved.owner.id &&
    video.creatorId === resolved.owner.id &&
    video.recipientId === body.recipientId &&
    video.byteSize === body.byteSize &&
    video.mimeType === body.mimeType &&
    upload.byteSize === body.byteSize &&
    (upload.sha256 ?? undefined) === body.sha256 &&
    upload.pairingKeyWrap === (body.sealed?.pairingKeyWrap ?? null);
  if (!isSameRequest) throw idInUse();
  return toUploading(deps, upload);
}

/**
 * One gallery video: its index row and its upload, started together; audited for the owner. It
 * only ever makes a new message: an id already in use, anyone's, is refused before anything else
 * happens, so a phone can never replace a message's bytes or end its upload. The one exception is
 * the same pairing asking again for its own upload under way, answered as the first time.
 */
export async function receivePairedVideo(
  deps: Deps,
  context: RequestContext,
  input: { actor: Actor; pairing: PairingRow; body: TPairingVideoBody },
): Promise<TCreateUploadResult> {
  const { actor, pairing, body } = input;
  requireAccess(actor, Permission.PhoneImport);
  const owner = actor.user;
  // Before the message is indexed: a refused phone leaves nothing behind.
  await requirePhoneCopyForm(deps, {
    ownerId: owner.id,
    pairingKeyWrapOfPairing: pairing.keyWrap,
    isSealed: body.sealed !== undefined,
  });
  const indexed = await indexVideo(deps, {
    actor,
    body: {
      id: body.id,
      recipientId: body.recipientId,
      metadata: { byteSize: body.byteSize, durationMs: body.durationMs, mimeType: body.mimeType },
    },
  }).catch((error: unknown) => {
    // Another account's id: the same answer as one of the owner's own, naming nobody.
    if (error instanceof AppError && error.fields?.id) throw idInUse();
    throw error;
  });
  if (!indexed.isNew) return answerRetry(deps, { pairing, owner }, body, indexed.row);
  const result = await createUpload(deps, {
    actor,
    body: {
      videoId: body.id,
      title: body.title,
      promptId: null,
      byteSize: body.byteSize,
      sha256: body.sha256,
    },
    pairingKeyWrap: body.sealed?.pairingKeyWrap ?? null,
  });
  await countPairingUpload(deps.db, pairing.id);
  await recordAudit(deps.db, context, {
    eventType: 'pairing_video_received',
    userId: owner.id,
    username: owner.username,
    details: { message: `A phone sent “${body.title}”`, videoId: body.id },
  });
  return result;
}
