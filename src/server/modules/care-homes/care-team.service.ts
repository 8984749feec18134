import { hasCloudSync } from '../../../shared/domain/plan-limits';
import {
  CARE_TEAM_MESSAGES,
  type TCareTeamMine,
  type TCareTeamShared,
  type TCareTeamShareState,
  type TCareTeamWhyNot,
} from '../../../shared/schemas/care-team';
import type { AppDeps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import {
  can,
  isShareCurrent,
  Permission,
  requireAccess,
  type CareTeamWatchTarget,
} from '../access/access';
import type { Actor } from '../access/actor';
import { recordAccountEvent, type RequestContext } from '../audit/audit.service';
import { hasAccountKeys } from '../encryption/encryption.repository';
import { isReleased } from '../legacy/release-rule';
import { findUserById } from '../users/users.repository';
import {
  findVideoById,
  SYNC_STATUSES_WITH_TITLE,
  type VideoRow,
} from '../videos/videos.repository';
import {
  deleteShareOf,
  findMembershipsOf,
  findResidenceOf,
  findSharedVideo,
  findSharedWithHomes,
  findShare,
  findSharesOfResident,
  upsertShare,
  type Membership,
} from './care-team.repository';
import { fullName, staffAndStation, type StationSessionRow } from './stations.repository';

type Deps = Pick<AppDeps, 'clock' | 'db'>;

const NO_HOME: TCareTeamMine = { home: null, whyNot: null, shares: [] };

/** Why this resident may not share a message from their own tablet: sealed, or kept there. */
function whyNotOf(actor: Actor, isSealed: boolean): TCareTeamWhyNot | null {
  if (isSealed) return 'sealed';
  return hasCloudSync(actor.user) ? null : 'on_device';
}

/** The resident's own home while they live there, or nothing (never for a paired phone). */
async function currentResidence(db: DbOrTx, actor: Actor) {
  if (actor.pairingId !== null || actor.user.category !== 'primary') return undefined;
  const residence = await findResidenceOf(db, actor.user.id);
  return residence?.status === 'active' ? residence : undefined;
}

/**
 * GET /api/care-home/care-team/mine: for a resident, their home, whether a message made on their
 * own tablet can be shared with its care team, and what they share now. Nothing for anyone else.
 */
export async function getMyCareTeam(deps: Deps, actor: Actor): Promise<TCareTeamMine> {
  const residence = await currentResidence(deps.db, actor);
  if (!residence) return NO_HOME;
  const [isSealed, rows] = await Promise.all([
    hasAccountKeys(deps.db, actor.user.id),
    findSharesOfResident(deps.db, actor.user.id, residence.careHomeId),
  ]);
  const now = deps.clock.now();
  const stateOf = (video: (typeof rows)[number]['video']): TCareTeamShareState => {
    if (isSealed) return 'sealed';
    if (video.syncStatus !== 'synced') return 'waiting_for_copy';
    return isReleased(video, residence, now) ? 'watchable' : 'not_open_yet';
  };
  return {
    home: { name: residence.homeName },
    whyNot: whyNotOf(actor, isSealed),
    shares: rows
      .filter((row) => isShareCurrent(row.share, residence))
      .map(({ share, video }) => ({
        videoId: video.id,
        title: (SYNC_STATUSES_WITH_TITLE as readonly string[]).includes(video.syncStatus)
          ? video.title
          : null,
        createdAt: video.createdAt.toISOString(),
        sharedAt: share.sharedAt.toISOString(),
        state: stateOf(video),
      })),
  };
}

/** One of this owner's messages, or a refusal that names nothing. */
async function requireOwnVideo(db: DbOrTx, ownerId: number, videoId: string): Promise<VideoRow> {
  const video = await findVideoById(db, videoId);
  if (!video || video.creatorId !== ownerId) {
    throw new AppError('NOT_FOUND', CARE_TEAM_MESSAGES.messageNotFound);
  }
  return video;
}

/** A sealed message, or one that will only ever be on the resident's tablet, cannot be shared. */
function requireShareable(video: VideoRow, isSealed: boolean, hasCloud: boolean): void {
  if (isSealed || video.sealedKeyWrap !== null) {
    throw new AppError('CONFLICT', CARE_TEAM_MESSAGES.sealed);
  }
  if (video.syncStatus === 'local_only' && !hasCloud) {
    throw new AppError('CONFLICT', CARE_TEAM_MESSAGES.onDevice);
  }
}

/**
 * PUT /api/care-home/care-team/shares/:videoId: the resident shares one of their messages with
 * the care team of the home they live at. Sharing it again changes nothing.
 */
export async function shareWithCareTeam(
  deps: Deps,
  context: RequestContext,
  input: { actor: Actor; videoId: string },
): Promise<{ shared: true }> {
  const { actor } = input;
  requireAccess(actor, Permission.CareTeamShare);
  const residence = await currentResidence(deps.db, actor);
  if (!residence) throw new AppError('FORBIDDEN', CARE_TEAM_MESSAGES.notResident);
  const video = await requireOwnVideo(deps.db, actor.user.id, input.videoId);
  requireShareable(video, await hasAccountKeys(deps.db, actor.user.id), hasCloudSync(actor.user));
  await saveShare(deps, context, {
    resident: actor.user,
    residence,
    videoId: video.id,
    message: `Shared a message with the care team at ${residence.homeName}`,
    actor: `${fullName(actor.user)}, themself`,
  });
  return { shared: true };
}

type Residence = NonNullable<Awaited<ReturnType<typeof findResidenceOf>>>;

/** Writes the share and one line on the resident's log, unless it stands already. */
async function saveShare(
  deps: Deps,
  context: RequestContext,
  input: {
    resident: { id: number; username: string };
    residence: Residence;
    videoId: string;
    message: string;
    actor: string;
  },
): Promise<void> {
  const { residence } = input;
  await deps.db.transaction(async (tx) => {
    const existing = await findShare(tx, input.videoId);
    if (existing && isShareCurrent(existing, residence)) return;
    await upsertShare(tx, {
      videoId: input.videoId,
      careHomeId: residence.careHomeId,
      sharedAt: deps.clock.now(),
    });
    await recordAccountEvent(tx, context, input.resident, {
      eventType: 'care_team_shared',
      details: { message: input.message, actor: input.actor, videoId: input.videoId },
    });
  });
}

/** DELETE /api/care-home/care-team/shares/:videoId: the care team sees this message no more. */
export async function stopSharingWithCareTeam(
  deps: Deps,
  context: RequestContext,
  input: { actor: Actor; videoId: string },
): Promise<void> {
  const { actor } = input;
  requireAccess(actor, Permission.CareTeamShare);
  await requireOwnVideo(deps.db, actor.user.id, input.videoId);
  const residence = await findResidenceOf(deps.db, actor.user.id);
  await deps.db.transaction(async (tx) => {
    if (!(await deleteShareOf(tx, actor.user.id, input.videoId))) return;
    await recordAccountEvent(tx, context, actor.user, {
      eventType: 'care_team_unshared',
      details: {
        message: `Stopped sharing a message with the care team${residence ? ` at ${residence.homeName}` : ''}`,
        actor: `${fullName(actor.user)}, themself`,
        videoId: input.videoId,
      },
    });
  });
}

/**
 * At a recording station, the message just saved for the resident is shared with the care team
 * as well, as the resident chose there; the carer who helped is named on the resident's log.
 */
export async function shareAtStation(
  deps: Deps,
  context: RequestContext,
  input: { session: StationSessionRow; videoId: string },
): Promise<void> {
  const { session } = input;
  const residentId = session.residentUserId;
  const residence = residentId === null ? undefined : await findResidenceOf(deps.db, residentId);
  if (!residentId || residence?.status !== 'active' || residence.careHomeId !== session.careHomeId)
    throw new AppError('FORBIDDEN', CARE_TEAM_MESSAGES.notResident);
  const video = await requireOwnVideo(deps.db, residentId, input.videoId);
  // A station saves only cloud copies, never for a sealed account: the rule holds all the same.
  requireShareable(video, await hasAccountKeys(deps.db, residentId), true);
  const { staffName, station } = await staffAndStation(deps.db, session);
  const resident = await findUserById(deps.db, residentId);
  if (!resident) throw new AppError('FORBIDDEN', CARE_TEAM_MESSAGES.notResident);
  await saveShare(deps, context, {
    resident,
    residence,
    videoId: video.id,
    message: `${staffName} (carer) helped share a message with the care team at ${residence.homeName} on ${station.name}`,
    actor: `${staffName}, carer`,
  });
}

/** The rule's reads for one shared message, as access.ts takes them. */
function watchTarget(
  row: Pick<CareTeamWatchTarget, 'video' | 'share' | 'residence'> & {
    resident: { legacyReleasedAt: Date | null };
    isSealed: boolean;
  },
  memberships: Membership[],
  now: Date,
): CareTeamWatchTarget {
  return {
    video: row.video,
    owner: { legacyReleasedAt: row.resident.legacyReleasedAt, isSealed: row.isSealed },
    share: row.share,
    residence: row.residence,
    memberOf: memberships.map((member) => member.careHomeId),
    now,
  };
}

/**
 * GET /api/care-home/care-team/shared: for a home's manager and its active staff, the messages
 * residents share with them that are open now: the resident's name, the title and the date.
 */
export async function listSharedWithCareTeam(deps: Deps, actor: Actor): Promise<TCareTeamShared> {
  const memberships =
    actor.pairingId === null && actor.user.category === 'primary'
      ? await findMembershipsOf(deps.db, actor.user.id)
      : [];
  if (memberships.length === 0) throw new AppError('FORBIDDEN', CARE_TEAM_MESSAGES.notStaff);
  const rows = await findSharedWithHomes(
    deps.db,
    memberships.map((member) => member.careHomeId),
  );
  const now = deps.clock.now();
  return {
    homeName: memberships[0]!.homeName,
    messages: rows
      .filter((row) => can(actor, Permission.CareTeamWatch, watchTarget(row, memberships, now)))
      .map(({ video, resident }) => ({
        videoId: video.id,
        residentName: fullName(resident),
        title: video.title ?? `A message from ${resident.firstName}`,
        createdAt: video.createdAt.toISOString(),
        durationMs: video.durationMs,
      })),
  };
}

/** Someone of the care team watching a shared message: who, for the resident's log. */
export interface CareTeamViewing {
  video: VideoRow;
  resident: { id: number; username: string };
  viewer: Membership;
}

/**
 * The playback path's care-team case: the message if the asker may watch it as the care team
 * (access.ts), else a refusal that names nothing; undefined when it is shared with no one.
 */
export async function findCareTeamViewing(
  deps: Deps,
  actor: Actor,
  videoId: string,
): Promise<CareTeamViewing | undefined> {
  const row = await findSharedVideo(deps.db, videoId);
  if (!row) return undefined;
  const memberships =
    actor.pairingId === null && actor.user.category === 'primary'
      ? await findMembershipsOf(deps.db, actor.user.id)
      : [];
  requireAccess(actor, Permission.CareTeamWatch, watchTarget(row, memberships, deps.clock.now()));
  const viewer = memberships.find((member) => member.careHomeId === row.share.careHomeId)!;
  return { video: row.video, resident: row.resident, viewer };
}

/** Each time the care team opens a shared message, a line on the resident's own log. */
export async function noteCareTeamWatch(
  deps: Pick<AppDeps, 'db'>,
  context: RequestContext,
  viewing: CareTeamViewing,
): Promise<void> {
  const { viewer } = viewing;
  const role = viewer.role === 'manager' ? 'manager of' : 'carer at';
  const who = `${fullName(viewer)} (${role} ${viewer.homeName})`;
  await recordAccountEvent(deps.db, context, viewing.resident, {
    eventType: 'care_team_watched',
    details: {
      message: `${who} watched a message you shared with the care team`,
      actor: `${fullName(viewer)}, ${viewer.role === 'manager' ? `manager of ${viewer.homeName}` : 'carer'}`,
      videoId: viewing.video.id,
    },
  });
}
