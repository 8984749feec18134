import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyReply } from 'fastify';
import { cloudQuotaFor, hasCloudSync } from '../../../shared/domain/plan-limits';
import {
  normaliseVideoType,
  servedVideoType,
  UNKNOWN_VIDEO_TYPE,
} from '../../../shared/domain/video-types';
import { CLOUD_MESSAGES, type TCloudStatus, type TPlayback } from '../../../shared/schemas/cloud';
import { ENCRYPTION_MESSAGES } from '../../../shared/schemas/encryption';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import type { DeviceRow } from '../devices/devices.repository';
import { findUserById, type SessionUser } from '../users/users.repository';
import { Permission, refusal, requireAccess } from '../access/access';
import type { Actor } from '../access/actor';
import type { RequestContext } from '../audit/audit.service';
import {
  findCareTeamViewing,
  noteCareTeamWatch,
  type CareTeamViewing,
} from '../care-homes/care-team.service';
import { noteFirstWatch } from '../legacy/release-end.repository';
import { findVideoWatchableBy, type VideoRow } from '../videos/videos.repository';
import { findLatestDowngrade } from './downgrades.repository';
import { sumCloudBytes } from './uploads.repository';
import { FileVideoStore, PLAYBACK_URL_SECONDS } from './video-store';

/** The part of the app's dependencies this service uses. */
type Deps = Pick<AppDeps, 'db' | 'urlSigner' | 'videoStore' | 'clock'>;

/**
 * A cloud copy the actor may watch (`Permission.MessageWatch`), or watch as the care team of the
 * resident's home (`Permission.CareTeamWatch`), checked on every request; anything else is not
 * found, so a message not open to someone does not exist for them.
 */
export async function findWatchableVideo(
  deps: Deps,
  actor: Actor,
  videoId: string,
): Promise<{ video: VideoRow & { cloudPath: string }; careTeam: CareTeamViewing | null }> {
  const { user } = actor;
  let video = await findVideoWatchableBy(deps.db, user, videoId);
  let careTeam: CareTeamViewing | null = null;
  if (video) {
    const owner =
      video.creatorId === user.id ? null : ((await findUserById(deps.db, video.creatorId)) ?? null);
    requireAccess(actor, Permission.MessageWatch, { video, owner, now: deps.clock.now() });
  } else {
    careTeam = (await findCareTeamViewing(deps, actor, videoId)) ?? null;
    if (!careTeam) throw refusal(Permission.MessageWatch);
    video = careTeam.video;
  }
  if (video.syncStatus !== 'synced' || !video.cloudPath) {
    throw new AppError('NOT_FOUND', CLOUD_MESSAGES.notInCloud);
  }
  // A phone's sealed copy opens for nobody until the owner's device wraps its key again.
  if (video.pairingKeyWrap !== null) {
    throw new AppError('CONFLICT', ENCRYPTION_MESSAGES.waitingToBeSealed);
  }
  return { video: video as VideoRow & { cloudPath: string }, careTeam };
}

export async function getPlayback(
  deps: Deps,
  context: RequestContext,
  input: { actor: Actor; videoId: string },
): Promise<TPlayback> {
  const { user } = input.actor;
  const { video: found, careTeam } = await findWatchableVideo(deps, input.actor, input.videoId);
  if (careTeam) {
    // Each time the care team opens a shared message goes on the resident's own log.
    await noteCareTeamWatch(deps, context, careTeam);
  } else if (found.creatorId !== user.id) {
    // A recipient's first watch is kept: ending a legacy release leaves open what they have seen.
    await noteFirstWatch(deps.db, {
      videoId: found.id,
      recipientId: user.id,
      now: deps.clock.now(),
    });
  }
  // A row saved before the list of video types existed may hold any type: never pass it on.
  const mimeType = normaliseVideoType(found.mimeType) ?? UNKNOWN_VIDEO_TYPE;
  // Sealed bytes are never served as a video: a download the page fetches and opens itself.
  const served = { ...found, mimeType: found.sealedKeyWrap ? UNKNOWN_VIDEO_TYPE : mimeType };
  const expiresAt = Math.floor(deps.clock.now().getTime() / 1000) + PLAYBACK_URL_SECONDS;
  const presigned = await deps.videoStore.presignedPlaybackUrl(served.cloudPath, served.mimeType);
  const url = presigned ?? signedContentUrl(deps, served, expiresAt);
  return {
    url,
    expiresAt: new Date(expiresAt * 1000).toISOString(),
    mimeType,
    byteSize: found.byteSize,
    durationMs: found.durationMs,
    sealed: sealedFor(found, user.id),
  };
}

/**
 * What opens a sealed copy for whoever asked (already allowed to watch it, so a waiting message's
 * wrap never leaves before its release): the owner's wrap for the owner; for the recipient the
 * wrap for their card, or nothing while no card of theirs opens it.
 */
function sealedFor(
  video: Pick<VideoRow, 'creatorId' | 'sealedKeyWrap' | 'recipientKeyWrap' | 'recipientKeyId'>,
  userId: number,
): TPlayback['sealed'] {
  if (video.sealedKeyWrap === null) return null;
  if (video.creatorId === userId) {
    return { keyWrap: video.sealedKeyWrap, holder: 'owner', keyId: null };
  }
  const { recipientKeyWrap: keyWrap, recipientKeyId: keyId } = video;
  return keyWrap !== null && keyId !== null
    ? { keyWrap, holder: 'recipient', keyId }
    : { keyWrap: null, holder: 'recipient', keyId: null };
}

/** What a file-mode playback URL names; all of it is signed. */
function contentUrlParts(
  video: { id: string; cloudPath: string; mimeType: string },
  expiresAt: number,
) {
  return [video.id, video.cloudPath, video.mimeType, String(expiresAt)];
}

function signedContentUrl(
  deps: Deps,
  video: { id: string; cloudPath: string; mimeType: string },
  expiresAt: number,
): string {
  const query = new URLSearchParams({
    key: video.cloudPath,
    type: video.mimeType,
    expires: String(expiresAt),
    sig: deps.urlSigner.sign(contentUrlParts(video, expiresAt)),
  });
  return `/api/videos/${video.id}/content?${query.toString()}`;
}

export interface ContentQuery {
  key: string;
  type: string;
  expires: number;
  sig: string;
}

const STREAM_READ_BYTES = 512 * 1024;
const RANGE_PATTERN = /^bytes=(\d*)-(\d*)$/;

/**
 * File mode's stream with HTTP Range (206), so the player can seek and start at once. Like S3's
 * presigned GET it answers a URL the playback call signed a few minutes ago for this exact object:
 * no session lookup per range request. Deleting the message, or its recipient,
 * deletes the file, so access still ends at once.
 */
export async function streamVideo(
  deps: Deps,
  input: { videoId: string; query: ContentQuery; range: string | undefined },
  reply: FastifyReply,
) {
  const store = deps.videoStore;
  const { query } = input;
  const video = { id: input.videoId, cloudPath: query.key, mimeType: query.type };
  const isValid =
    store instanceof FileVideoStore &&
    /^[0-9a-f]{32}$/.test(query.key) &&
    query.expires * 1000 > deps.clock.now().getTime() &&
    deps.urlSigner.verify(contentUrlParts(video, query.expires), query.sig);
  if (!isValid) throw new AppError('NOT_FOUND', CLOUD_MESSAGES.videoNotFound);
  const file = store.objectPath(query.key);
  let size: number;
  try {
    ({ size } = await stat(file));
  } catch {
    throw new AppError('NOT_FOUND', CLOUD_MESSAGES.videoNotFound);
  }

  // Only ever a video to play (or, for an old row of another type, a file to save): the browser
  // may not guess another type, show it as a page or run anything in it.
  const served = servedVideoType(query.type);
  reply
    .header('accept-ranges', 'bytes')
    .header('content-type', served.contentType)
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', served.disposition)
    .header('content-security-policy', "sandbox; default-src 'none'")
    .header('cache-control', 'private, max-age=300')
    .header('etag', `"${query.key}"`);

  let start = 0;
  let end = size - 1;
  const match = input.range ? RANGE_PATTERN.exec(input.range.trim()) : null;
  if (input.range && !match) {
    return reply.status(416).header('content-range', `bytes */${size}`).send();
  }
  if (match) {
    const [, from, to] = match;
    if (from === '' && to !== '') {
      start = Math.max(0, size - Number(to));
    } else {
      start = Number(from);
      if (to !== '') end = Math.min(Number(to), size - 1);
    }
    if (start > end || start >= size) {
      return reply.status(416).header('content-range', `bytes */${size}`).send();
    }
    reply.status(206).header('content-range', `bytes ${start}-${end}/${size}`);
  }
  reply.header('content-length', String(end - start + 1));
  // Larger reads than the 64 KiB default: a range is sent in a few big writes, not many small ones.
  return reply.send(createReadStream(file, { start, end, highWaterMark: STREAM_READ_BYTES }));
}

export async function getCloudStatus(
  deps: Deps,
  input: { user: SessionUser; device: DeviceRow },
): Promise<TCloudStatus> {
  const { user, device } = input;
  const [{ usedBytes, syncedCount }, downgrade] = await Promise.all([
    sumCloudBytes(deps.db, user.id),
    findLatestDowngrade(deps.db, user.id),
  ]);
  const isEntitled = hasCloudSync(user);
  const retention =
    !isEntitled && downgrade && !downgrade.cloudCleanupCompleted
      ? downgrade.cloudRetentionExpiry.toISOString()
      : null;
  return {
    hasCloudSync: isEntitled,
    usedBytes,
    quotaBytes: isEntitled ? cloudQuotaFor(user) : null,
    syncedCount,
    lastSyncAt: device.userId === user.id ? (device.lastSyncAt?.toISOString() ?? null) : null,
    retentionExpiresAt: retention,
  };
}
