import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, eq, isNull } from 'drizzle-orm';
import { hasCloudSync } from '../../../shared/domain/plan-limits';
import { isCareHomePlan } from '../../../shared/schemas/care-homes';
import {
  STATION_MESSAGES,
  type TStationRecipient,
  type TStationResident,
} from '../../../shared/schemas/stations';
import type { AppDeps } from '../../deps';
import { careHomeResidents, careHomes, careHomeStationSessions, users } from '../../db/schema';
import { AppError } from '../../errors';
import type { Actor } from '../access/actor';
import { recordAccountEvent, type RequestContext } from '../audit/audit.service';
import { completeUpload, createUpload, receivePart, signParts } from '../cloud/uploads.service';
import { compositeSha256, FileVideoStore, type SentPart } from '../cloud/video-store';
import {
  findRecipientsOf,
  SESSION_USER_COLUMNS,
  type SessionUser,
} from '../users/users.repository';
import { requireCopyForm } from '../encryption/encryption.service';
import { indexVideo } from '../videos/videos.service';
import {
  eligibleResidents,
  findActiveStaffOfUser,
  fullName,
  staffAndStation,
  type StationSessionRow,
} from './stations.repository';

type Deps = Pick<AppDeps, 'clock' | 'db' | 'log' | 'uploadPartBytes' | 'videoStore'>;

export async function listStationResidents(
  deps: Pick<AppDeps, 'db'>,
  session: StationSessionRow,
): Promise<TStationResident[]> {
  const rows = await eligibleResidents(deps.db, session.careHomeId);
  return rows.map((row) => ({ id: row.userId, name: fullName(row) }));
}

/** Picks a resident of this home (with a consent basis, not paused): record-only from now. */
export async function pickResident(
  deps: Pick<AppDeps, 'db'>,
  context: RequestContext,
  input: { session: StationSessionRow; residentId: number },
): Promise<TStationResident> {
  const eligible = await eligibleResidents(deps.db, input.session.careHomeId);
  const resident = eligible.find((row) => row.userId === input.residentId);
  // Another home's resident, a paused one, or one without consent: not offered here.
  if (!resident) throw new AppError('NOT_FOUND', STATION_MESSAGES.residentNotOffered);
  const { staffName, station } = await staffAndStation(deps.db, input.session);
  await deps.db.transaction(async (tx) => {
    await tx
      .update(careHomeStationSessions)
      .set({ residentUserId: resident.userId })
      .where(eq(careHomeStationSessions.idHash, input.session.idHash));
    await recordAccountEvent(
      tx,
      context,
      { id: resident.userId, username: resident.username },
      {
        eventType: 'care_home_station_session',
        details: {
          message: `${staffName} (carer) opened a recording session on ${station.name}`,
          actor: `${staffName}, carer`,
        },
      },
    );
  });
  return { id: resident.userId, name: fullName(resident) };
}

export async function requireResidentOfSession(
  deps: Pick<AppDeps, 'db'>,
  session: StationSessionRow,
) {
  if (!session.residentUserId) throw new AppError('FORBIDDEN', STATION_MESSAGES.pickResident);
  const eligible = await eligibleResidents(deps.db, session.careHomeId);
  // Paused, left or consent withdrawn meanwhile: the session can do nothing more.
  if (!eligible.some((row) => row.userId === session.residentUserId)) {
    throw new AppError('NOT_FOUND', STATION_MESSAGES.residentNotOffered);
  }
  const [resident] = await deps.db
    .select(SESSION_USER_COLUMNS)
    .from(users)
    .where(eq(users.id, session.residentUserId));
  if (!resident) throw new AppError('NOT_FOUND', STATION_MESSAGES.residentNotOffered);
  return resident;
}

/** Names only, to choose who a message is for. */
export async function listStationRecipients(
  deps: Pick<AppDeps, 'db'>,
  session: StationSessionRow,
): Promise<TStationRecipient[]> {
  const resident = await requireResidentOfSession(deps, session);
  const rows = await findRecipientsOf(deps.db, resident.id);
  return rows.map((row) => ({ id: row.id, name: fullName(row) }));
}

/**
 * The resident as the station acts for them: record-only, never their primary device. While the
 * home's plan grants, the resident has its cloud sync and limits.
 */
async function residentActor(
  deps: Pick<AppDeps, 'db'>,
  session: StationSessionRow,
  resident: SessionUser,
): Promise<Actor> {
  const [home] = await deps.db
    .select({ tier: users.subscriptionTier })
    .from(careHomes)
    .innerJoin(users, eq(users.id, careHomes.managerId))
    .where(eq(careHomes.id, session.careHomeId));
  const user =
    home && isCareHomePlan(home.tier) ? { ...resident, subscriptionTier: home.tier } : resident;
  return {
    user,
    deviceId: session.deviceId,
    isPrimaryDevice: false,
    pairingId: null,
    stationSessionId: session.idHash,
  };
}

/** The take cut as the upload's parts are, each with its SHA-256. */
function partsOf(bytes: Buffer, partSize: number) {
  const count = Math.max(1, Math.ceil(bytes.length / partSize));
  return Array.from({ length: count }, (_, index) => {
    const chunk = bytes.subarray(index * partSize, Math.min((index + 1) * partSize, bytes.length));
    return { chunk, sha256: createHash('sha256').update(chunk).digest('hex') };
  });
}

/**
 * Saves the take to the resident's cloud library in one request; the station keeps nothing once
 * the copy is checked. A plan without cloud sync is refused in words: the station may not keep it.
 * The take's id is the message's: a retry of a take already saved answers 'saved' and adds
 * nothing, and one cut off part way carries on. A sealed take (`sealed`) is known by its parts'
 * checksums, as any copy sealed while it is sent, and indexed at its recording's size.
 */
export async function saveStationRecording(
  deps: Deps,
  context: RequestContext,
  input: {
    session: StationSessionRow;
    takeId: string;
    recipientId: number;
    durationMs: number;
    mimeType: string;
    bytes: Buffer;
    sealed?: { keyWrap: string; recipientKeyWrap?: string | undefined; plaintextBytes: number };
  },
): Promise<{ saved: true; recipientName: string }> {
  const resident = await requireResidentOfSession(deps, input.session);
  const actor = await residentActor(deps, input.session, resident);
  if (!hasCloudSync(actor.user)) throw new AppError('UPGRADE_REQUIRED', STATION_MESSAGES.noCloud);
  const recipients = await findRecipientsOf(deps.db, resident.id);
  const recipient = recipients.find((row) => row.id === input.recipientId);
  if (!recipient) throw new AppError('NOT_FOUND', STATION_MESSAGES.recipientNotFound);

  const videoId = input.takeId;
  const { sealed } = input;
  // Plain for a sealed account, or the reverse: refused before anything is indexed.
  await requireCopyForm(deps, {
    userId: resident.id,
    sealedKeyWrap: sealed?.keyWrap ?? null,
    pairingId: null,
    pairingKeyWrap: null,
  });
  const sha = sealed ? undefined : createHash('sha256').update(input.bytes).digest('hex');
  const pieces = partsOf(input.bytes, deps.uploadPartBytes);
  const { row } = await indexVideo(deps, {
    actor,
    body: {
      id: videoId,
      recipientId: recipient.id,
      metadata: {
        byteSize: sealed?.plaintextBytes ?? input.bytes.length,
        durationMs: input.durationMs,
        mimeType: input.mimeType,
      },
    },
  });
  // The same take sent again for someone else is not the same message.
  if (row.recipientId !== recipient.id) {
    throw new AppError('CONFLICT', STATION_MESSAGES.saveFailed);
  }
  const isSavedAlready =
    sealed !== undefined &&
    row.syncStatus === 'synced' &&
    row.sha256 === compositeSha256(pieces.map((piece) => piece.sha256));
  if (isSavedAlready) return { saved: true, recipientName: fullName(recipient) };
  const started = await createUpload(deps, {
    actor,
    body: {
      videoId,
      title: `A message for ${recipient.firstName}`,
      byteSize: input.bytes.length,
      sha256: sha,
      promptId: null,
      ...(sealed
        ? { sealed: { keyWrap: sealed.keyWrap, recipientKeyWrap: sealed.recipientKeyWrap } }
        : {}),
    },
  });
  if (started.state === 'synced') return { saved: true, recipientName: fullName(recipient) };
  if (started.state === 'uploading') {
    const parts: SentPart[] = [];
    const sent =
      started.partSize === deps.uploadPartBytes ? pieces : partsOf(input.bytes, started.partSize);
    for (let number = 1; number <= started.partCount; number += 1) {
      const { chunk, sha256: partSha } = sent[number - 1]!;
      if (deps.videoStore instanceof FileVideoStore) {
        const etag = await receivePart(deps, actor, {
          uploadId: started.uploadId,
          partNumber: number,
          body: Readable.from([chunk]),
        });
        parts.push({ partNumber: number, etag, sha256: partSha });
      } else {
        const [signed] = (
          await signParts(deps, actor, started.uploadId, {
            partNumbers: [number],
            sha256s: [partSha],
          })
        ).parts;
        const put = await fetch(signed!.url, {
          method: 'PUT',
          headers: signed!.headers,
          body: new Uint8Array(chunk),
        });
        if (!put.ok) throw new AppError('CONFLICT', STATION_MESSAGES.saveFailed);
        parts.push({ partNumber: number, etag: put.headers.get('etag') ?? '', sha256: partSha });
      }
    }
    await completeUpload(deps, context, actor, { uploadId: started.uploadId, parts });
  }
  const { staffName, station } = await staffAndStation(deps.db, input.session);
  await recordAccountEvent(deps.db, context, resident, {
    eventType: 'care_home_recording_saved',
    details: {
      message: `${staffName} (carer) helped save a message for ${fullName(recipient)} on ${station.name}`,
      actor: `${staffName}, carer`,
    },
  });
  return { saved: true, recipientName: fullName(recipient) };
}

/** "Finish" or the idle timer: the server forgets the session; the station wipes itself. */
export async function finishStationSession(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  context: RequestContext,
  session: StationSessionRow,
): Promise<void> {
  await deps.db
    .update(careHomeStationSessions)
    .set({ endedAt: deps.clock.now() })
    .where(eq(careHomeStationSessions.idHash, session.idHash));
  if (!session.residentUserId) return;
  const [resident] = await deps.db.select().from(users).where(eq(users.id, session.residentUserId));
  if (!resident) return;
  const { staffName, station } = await staffAndStation(deps.db, session);
  await recordAccountEvent(deps.db, context, resident, {
    eventType: 'care_home_station_session',
    details: {
      message: `${staffName} (carer) finished the recording session on ${station.name}`,
      actor: `${staffName}, carer`,
    },
  });
}

/**
 * Pause or resume a resident: their manager, a staff member of the home (with their own account
 * or at a station), or the resident themself. Written on the resident's own log.
 */
export async function setPaused(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  context: RequestContext,
  input: ({ residentUserId: number } | { linkId: number }) & {
    paused: boolean;
    who: { actor: Actor } | { session: StationSessionRow };
  },
): Promise<{ paused: boolean }> {
  const [link] = await deps.db
    .select({ link: careHomeResidents, home: careHomes, resident: users })
    .from(careHomeResidents)
    .innerJoin(careHomes, eq(careHomes.id, careHomeResidents.careHomeId))
    .innerJoin(users, eq(users.id, careHomeResidents.userId))
    .where(
      'linkId' in input
        ? eq(careHomeResidents.id, input.linkId)
        : eq(careHomeResidents.userId, input.residentUserId),
    );
  if (!link) throw new AppError('NOT_FOUND', STATION_MESSAGES.residentNotOffered);
  let actorName: string;
  if ('session' in input.who) {
    if (
      input.who.session.careHomeId !== link.home.id ||
      input.who.session.residentUserId !== link.resident.id
    )
      throw new AppError('NOT_FOUND', STATION_MESSAGES.residentNotOffered);
    actorName = `${link.resident.firstName} ${link.resident.lastName}, at a station`;
  } else {
    const { actor } = input.who;
    if (actor.pairingId !== null) throw new AppError('FORBIDDEN', STATION_MESSAGES.notHere);
    if (actor.user.id === link.resident.id) {
      actorName = `${fullName(actor.user)}, themself`;
    } else if (actor.user.id === link.home.managerId) {
      actorName = `${fullName(actor.user)}, manager of ${link.home.name}`;
    } else {
      const staff = await findActiveStaffOfUser(deps.db, actor.user.id);
      if (!staff || staff.staff.careHomeId !== link.home.id)
        throw new AppError('NOT_FOUND', STATION_MESSAGES.residentNotOffered);
      // Named as the home knows them, as at the stations.
      actorName = `${fullName(staff.staff)}, carer`;
    }
  }
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await tx
      .update(careHomeResidents)
      .set({ pausedAt: input.paused ? now : null })
      .where(eq(careHomeResidents.id, link.link.id));
    if (input.paused) {
      // A paused resident's open station sessions end at once.
      await tx
        .update(careHomeStationSessions)
        .set({ endedAt: now })
        .where(
          and(
            eq(careHomeStationSessions.residentUserId, link.resident.id),
            isNull(careHomeStationSessions.endedAt),
          ),
        );
    }
    await recordAccountEvent(tx, context, link.resident, {
      eventType: 'care_home_paused',
      details: {
        message: input.paused
          ? 'Memento paused at the care home'
          : 'Memento resumed at the care home',
        actor: actorName,
      },
    });
  });
  return { paused: input.paused };
}
