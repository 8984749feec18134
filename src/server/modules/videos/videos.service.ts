import { limitsFor } from '../../../shared/domain/plan-limits';
import { MESSAGES } from '../../../shared/domain/errors';
import type { TRelease } from '../../../shared/domain/legacy';
import type { TCreateVideoIndexBody } from '../../../shared/schemas/videos';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { Permission, requireAccess } from '../access/access';
import type { Actor } from '../access/actor';
import { recordAudit, type RequestContext } from '../audit/audit.service';
import type { DeviceRow } from '../devices/devices.repository';
import { findRecipientOf } from '../recipients/recipients.repository';
import type { SessionUser } from '../users/users.repository';
import { findCloudLeftovers, touchDeviceSync } from '../cloud/uploads.repository';
import { removeCloudCopies } from '../cloud/uploads.service';
import { deleteVideosOfCreator, insertVideoOnce, type VideoRow } from './videos.repository';

/** The library's index as the database keeps it, read with the request. */
export { OWN_VIDEO_INDEX_READ } from './videos.repository';

/** The part of the app's dependencies this service uses. */
type Deps = Pick<AppDeps, 'clock' | 'db' | 'log' | 'uploadPartBytes' | 'videoStore'>;

/** Timers and encoders overrun a little; the index allows this much past the plan's maximum. */
const DURATION_SLACK_MS = 5_000;

type IndexInput = Required<Pick<TCreateVideoIndexBody, 'id' | 'recipientId' | 'metadata'>> & {
  createdAt?: string;
  release?: TRelease;
};

/**
 * Records that a local video exists: no title, no prompt, no content.
 * Idempotent by the client's id, so a retried save never makes a second row.
 */
export async function indexVideo(
  deps: Deps,
  input: { actor: Actor; body: IndexInput },
): Promise<{ row: VideoRow; isNew: boolean }> {
  const { actor, body } = input;
  requireAccess(actor, Permission.MessageAdd);
  const owner = actor.user;
  const recipient = await findRecipientOf(deps.db, owner.id, body.recipientId);
  if (!recipient) throw new AppError('NOT_FOUND', MESSAGES.recipientNotFound);

  const maxMs = limitsFor(owner).maxRecordingSeconds * 1000 + DURATION_SLACK_MS;
  if (body.metadata.durationMs > maxMs) {
    throw new AppError('VALIDATION', 'This recording is longer than your plan allows.', {
      'metadata.durationMs': 'This recording is longer than your plan allows.',
    });
  }

  const now = deps.clock.now();
  const createdAt = body.createdAt ? new Date(body.createdAt) : now;
  const { row, isNew } = await insertVideoOnce(deps.db, {
    id: body.id,
    creatorId: owner.id,
    recipientId: recipient.id,
    deviceId: actor.deviceId,
    storageType: 'local',
    syncStatus: 'local_only',
    byteSize: body.metadata.byteSize,
    durationMs: body.metadata.durationMs,
    mimeType: body.metadata.mimeType,
    createdAt: createdAt.getTime() > now.getTime() ? now : createdAt,
    releaseRule: body.release?.rule ?? 'now',
    releaseAt: body.release?.at ? new Date(body.release.at) : null,
  });
  // Another account's id: refuse without saying whose.
  if (!row || row.creatorId !== owner.id) {
    throw new AppError('VALIDATION', 'This video id is already in use.', {
      id: 'This video id is already in use.',
    });
  }
  return { row, isNew };
}

export async function deleteVideos(
  deps: Deps,
  context: RequestContext,
  input: { actor: Actor; ids: readonly string[] },
): Promise<string[]> {
  requireAccess(input.actor, Permission.MessagesChange);
  const owner = input.actor.user;
  const ids = [...new Set(input.ids)];
  const { deleted, cloudCopies } = await deps.db.transaction(async (tx) => {
    const cloudCopies = await findCloudLeftovers(tx, ids);
    const deletedIds = await deleteVideosOfCreator(tx, owner.id, ids);
    if (deletedIds.length > 0) {
      await recordAudit(tx, context, {
        eventType: 'videos_deleted',
        userId: owner.id,
        username: owner.username,
        details: {
          message: `Deleted ${deletedIds.length} video${deletedIds.length === 1 ? '' : 's'}`,
          videoIds: deletedIds,
        },
      });
    }
    return { deleted: deletedIds, cloudCopies };
  });
  // Delete on the primary device removes the cloud copy too, once the rows are gone.
  await removeCloudCopies(deps, cloudCopies, deleted);
  return deleted;
}

/** An added device has synced when it reads the library: the admin's Last Sync says so. */
export async function noteLibraryRead(
  deps: Pick<AppDeps, 'clock' | 'db'>,
  user: SessionUser,
  device: DeviceRow,
): Promise<void> {
  if (device.userId === user.id && !device.isPrimary)
    await touchDeviceSync(deps.db, device.id, deps.clock.now());
}
