import { randomUUID, createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, asc, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import { hasCloudSync } from '../../../shared/domain/plan-limits';
import { isCareHomePlan } from '../../../shared/schemas/care-homes';
import {
  STATION_IDLE_MS,
  STATION_MESSAGES,
  type TStationAnswer,
  type TStationRecipient,
  type TStationResident,
} from '../../../shared/schemas/stations';
import type { AppDeps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import {
  careHomeResidents,
  careHomes,
  careHomeStaff,
  careHomeStations,
  careHomeStationSessions,
  devices,
  sessions,
  users,
} from '../../db/schema';
import { AppError } from '../../errors';
import {
  hashSecret,
  randomToken,
  sha256,
  verifyAgainstDummy,
  verifySecret,
} from '../../lib/crypto';
import type { Actor } from '../access/actor';
import { recordAccountEvent, recordAudit, type RequestContext } from '../audit/audit.service';
import { completeUpload, createUpload, receivePart, signParts } from '../cloud/uploads.service';
import { FileVideoStore, type SentPart } from '../cloud/video-store';
import {
  findRecipientsOf,
  SESSION_USER_COLUMNS,
  type SessionUser,
} from '../users/users.repository';
import { indexVideo } from '../videos/videos.service';
import { requireOwnHome } from './care-homes.service';

type Deps = Pick<AppDeps, 'clock' | 'db' | 'log' | 'uploadPartBytes' | 'videoStore'>;

/** Wrong PINs in a row before the PIN rests, and for how long. */
const PIN_TRIES = 5;
const PIN_LOCK_MS = 15 * 60_000;

const fullName = (person: { firstName: string; lastName: string }) =>
  `${person.firstName} ${person.lastName}`;

export type StationSessionRow = typeof careHomeStationSessions.$inferSelect;
type StationRow = typeof careHomeStations.$inferSelect;

async function findStation(db: DbOrTx, deviceId: string) {
  const [row] = await db
    .select({ station: careHomeStations, home: careHomes })
    .from(careHomeStations)
    .innerJoin(careHomes, eq(careHomes.id, careHomeStations.careHomeId))
    .where(eq(careHomeStations.deviceId, deviceId));
  return row;
}

async function requireStation(db: DbOrTx, deviceId: string) {
  const found = await findStation(db, deviceId);
  if (!found) throw new AppError('NOT_FOUND', STATION_MESSAGES.notStation);
  return found;
}

/**
 * The manager turns the tablet they are using into the home's station: the tablet stops being
 * theirs (no account is bound to a station) and their sign-in on it ends.
 */
export async function makeStation(
  deps: Pick<AppDeps, 'db'>,
  context: RequestContext,
  input: { actor: Actor; name: string },
): Promise<{ name: string }> {
  const home = await requireOwnHome(deps, input.actor);
  if (input.actor.pairingId !== null) throw new AppError('FORBIDDEN', STATION_MESSAGES.notHere);
  if (input.actor.isPrimaryDevice) {
    throw new AppError('CONFLICT', STATION_MESSAGES.ownMainDevice);
  }
  const deviceId = input.actor.deviceId;
  await deps.db.transaction(async (tx) => {
    const existing = await findStation(tx, deviceId);
    if (existing) throw new AppError('CONFLICT', STATION_MESSAGES.alreadyStation);
    await tx.insert(careHomeStations).values({ deviceId, careHomeId: home.id, name: input.name });
    await tx
      .update(devices)
      .set({ userId: null, isPrimary: false })
      .where(eq(devices.id, deviceId));
    await tx.delete(sessions).where(eq(sessions.deviceId, deviceId));
    await recordAccountEvent(tx, context, input.actor.user, {
      eventType: 'care_home_station_made',
      details: { message: `Made "${input.name}" a recording station of ${home.name}` },
    });
  });
  return { name: input.name };
}

/** Stations of the homes this account manages: they count toward its device limit. */

async function findActiveStaffOfUser(db: DbOrTx, userId: number) {
  const [row] = await db
    .select({ staff: careHomeStaff, homeName: careHomes.name })
    .from(careHomeStaff)
    .innerJoin(careHomes, eq(careHomes.id, careHomeStaff.careHomeId))
    .where(
      and(
        eq(careHomeStaff.userId, userId),
        isNotNull(careHomeStaff.acceptedAt),
        isNull(careHomeStaff.disabledAt),
      ),
    );
  return row;
}

/** A staff member sets their own PIN, signed in with their own account. */
export async function setPin(
  deps: Pick<AppDeps, 'db'>,
  context: RequestContext,
  input: { actor: Actor; pin: string },
): Promise<void> {
  if (input.actor.pairingId !== null) throw new AppError('FORBIDDEN', STATION_MESSAGES.notStaff);
  const found = await findActiveStaffOfUser(deps.db, input.actor.user.id);
  if (!found) throw new AppError('FORBIDDEN', STATION_MESSAGES.notStaff);
  const pinHash = await hashSecret(input.pin);
  await deps.db.transaction(async (tx) => {
    await tx
      .update(careHomeStaff)
      .set({ pinHash, pinFailures: 0, pinLockedUntil: null })
      .where(eq(careHomeStaff.id, found.staff.id));
    await recordAccountEvent(tx, context, input.actor.user, {
      eventType: 'care_home_pin_set',
      details: { message: `Set a station PIN for ${found.homeName}` },
    });
  });
}

async function eligibleResidents(db: DbOrTx, homeId: number) {
  return db
    .select({
      userId: users.id,
      username: users.username,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(careHomeResidents)
    .innerJoin(users, eq(users.id, careHomeResidents.userId))
    .where(
      and(
        eq(careHomeResidents.careHomeId, homeId),
        eq(careHomeResidents.status, 'active'),
        isNotNull(careHomeResidents.consentBasis),
        isNull(careHomeResidents.pausedAt),
      ),
    )
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id));
}

async function findStaffRow(db: DbOrTx, id: number) {
  const [row] = await db.select().from(careHomeStaff).where(eq(careHomeStaff.id, id));
  return row;
}

/** The session this station's cookie opened, still in use; else null. */
export async function findStationSession(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  deviceId: string,
  token: string | null,
): Promise<StationSessionRow | null> {
  if (!token) return null;
  const now = deps.clock.now();
  const [row] = await deps.db
    .select()
    .from(careHomeStationSessions)
    .where(
      and(
        eq(careHomeStationSessions.idHash, sha256(token)),
        eq(careHomeStationSessions.deviceId, deviceId),
        isNull(careHomeStationSessions.endedAt),
        gt(careHomeStationSessions.lastSeenAt, new Date(now.getTime() - STATION_IDLE_MS)),
      ),
    );
  if (!row) return null;
  const staff = await findStaffRow(deps.db, row.staffId);
  if (!staff || staff.disabledAt) return null;
  await deps.db
    .update(careHomeStationSessions)
    .set({ lastSeenAt: now })
    .where(eq(careHomeStationSessions.idHash, row.idHash));
  return row;
}

/** What the station shows: the home, who may sign in, and the open session if any. */
export async function getStation(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  deviceId: string,
  session: StationSessionRow | null,
): Promise<TStationAnswer> {
  const { station, home } = await requireStation(deps.db, deviceId);
  const staff = await deps.db
    .select({
      id: careHomeStaff.id,
      firstName: careHomeStaff.firstName,
      lastName: careHomeStaff.lastName,
    })
    .from(careHomeStaff)
    .where(
      and(
        eq(careHomeStaff.careHomeId, home.id),
        isNull(careHomeStaff.disabledAt),
        isNotNull(careHomeStaff.pinHash),
      ),
    )
    .orderBy(asc(careHomeStaff.firstName), asc(careHomeStaff.lastName));
  let open: TStationAnswer['session'] = null;
  if (session) {
    const member = await findStaffRow(deps.db, session.staffId);
    const resident = session.residentUserId
      ? (await deps.db.select().from(users).where(eq(users.id, session.residentUserId)))[0]
      : undefined;
    open = {
      staffName: member ? fullName(member) : '',
      resident: resident ? { name: fullName(resident) } : null,
    };
  }
  return {
    station: { name: station.name },
    home: {
      name: home.name,
      accentHex: home.accentHex,
      slug: home.slug,
      hasLogo: home.logo !== null,
    },
    staff: staff.map((member) => ({ id: member.id, name: fullName(member) })),
    session: open,
  };
}

/** PIN sign-in on a station: a few wrong tries rest the PIN; each refusal is on the staff's log. */
export async function signInAtStation(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  context: RequestContext,
  input: { deviceId: string; staffId: number; pin: string },
): Promise<{ token: string }> {
  const { station, home } = await requireStation(deps.db, input.deviceId);
  const now = deps.clock.now();
  const staff = await findStaffRow(deps.db, input.staffId);
  if (!staff || staff.careHomeId !== home.id || staff.disabledAt || !staff.pinHash) {
    await verifyAgainstDummy(input.pin);
    throw new AppError('UNAUTHENTICATED', STATION_MESSAGES.wrongPin);
  }
  if (staff.pinLockedUntil && staff.pinLockedUntil > now) {
    throw new AppError('RATE_LIMITED', STATION_MESSAGES.pinLocked);
  }
  const account = staff.userId
    ? (await deps.db.select().from(users).where(eq(users.id, staff.userId)))[0]
    : undefined;
  const ok = await verifySecret(staff.pinHash, input.pin);
  if (!ok) {
    const failures = staff.pinFailures + 1;
    const locks = failures >= PIN_TRIES;
    await deps.db
      .update(careHomeStaff)
      .set({
        pinFailures: locks ? 0 : failures,
        pinLockedUntil: locks ? new Date(now.getTime() + PIN_LOCK_MS) : null,
      })
      .where(eq(careHomeStaff.id, staff.id));
    await recordAudit(deps.db, context, {
      eventType: 'care_home_pin_refused',
      userId: account?.id ?? null,
      username: account?.username ?? null,
      successful: false,
      details: {
        message: locks
          ? `Wrong PIN on ${station.name}; the PIN rests for 15 minutes`
          : `Wrong PIN on ${station.name}`,
      },
    });
    throw new AppError(
      locks ? 'RATE_LIMITED' : 'UNAUTHENTICATED',
      locks ? STATION_MESSAGES.pinLocked : STATION_MESSAGES.wrongPin,
    );
  }
  const token = randomToken();
  await deps.db.transaction(async (tx) => {
    // The next staff sign-in ends whatever was open on this tablet.
    await tx
      .update(careHomeStationSessions)
      .set({ endedAt: now })
      .where(
        and(
          eq(careHomeStationSessions.deviceId, input.deviceId),
          isNull(careHomeStationSessions.endedAt),
        ),
      );
    await tx
      .update(careHomeStaff)
      .set({ pinFailures: 0, pinLockedUntil: null })
      .where(eq(careHomeStaff.id, staff.id));
    await tx.insert(careHomeStationSessions).values({
      idHash: sha256(token),
      careHomeId: home.id,
      deviceId: input.deviceId,
      staffId: staff.id,
      createdAt: now,
      lastSeenAt: now,
    });
  });
  return { token };
}

export function requireStationSession(session: StationSessionRow | null): StationSessionRow {
  if (!session) throw new AppError('UNAUTHENTICATED', STATION_MESSAGES.sessionEnded);
  return session;
}

export async function listStationResidents(
  deps: Pick<AppDeps, 'db'>,
  session: StationSessionRow,
): Promise<TStationResident[]> {
  const rows = await eligibleResidents(deps.db, session.careHomeId);
  return rows.map((row) => ({ id: row.userId, name: fullName(row) }));
}

async function staffAndStation(db: DbOrTx, session: StationSessionRow) {
  const staff = await findStaffRow(db, session.staffId);
  const [station] = await db
    .select()
    .from(careHomeStations)
    .where(eq(careHomeStations.deviceId, session.deviceId));
  return { staffName: staff ? fullName(staff) : 'A carer', station: station as StationRow };
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

async function requireResidentOfSession(deps: Pick<AppDeps, 'db'>, session: StationSessionRow) {
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

/**
 * Saves the take to the resident's cloud library in one request; the station keeps nothing once
 * the copy is checked. A plan without cloud sync is refused in words: the station may not keep it.
 */
export async function saveStationRecording(
  deps: Deps,
  context: RequestContext,
  input: {
    session: StationSessionRow;
    recipientId: number;
    durationMs: number;
    mimeType: string;
    bytes: Buffer;
  },
): Promise<{ saved: true; recipientName: string }> {
  const resident = await requireResidentOfSession(deps, input.session);
  const actor = await residentActor(deps, input.session, resident);
  if (!hasCloudSync(actor.user)) throw new AppError('UPGRADE_REQUIRED', STATION_MESSAGES.noCloud);
  const recipients = await findRecipientsOf(deps.db, resident.id);
  const recipient = recipients.find((row) => row.id === input.recipientId);
  if (!recipient) throw new AppError('NOT_FOUND', STATION_MESSAGES.recipientNotFound);

  const videoId = randomUUID();
  const sha = createHash('sha256').update(input.bytes).digest('hex');
  await indexVideo(deps, {
    actor,
    body: {
      id: videoId,
      recipientId: recipient.id,
      metadata: {
        byteSize: input.bytes.length,
        durationMs: input.durationMs,
        mimeType: input.mimeType,
      },
    },
  });
  const started = await createUpload(deps, {
    actor,
    body: {
      videoId,
      title: `A message for ${recipient.firstName}`,
      byteSize: input.bytes.length,
      sha256: sha,
      promptId: null,
    },
  });
  if (started.state === 'uploading') {
    const parts: SentPart[] = [];
    for (let number = 1; number <= started.partCount; number += 1) {
      const chunk = input.bytes.subarray(
        (number - 1) * started.partSize,
        Math.min(number * started.partSize, input.bytes.length),
      );
      const partSha = createHash('sha256').update(chunk).digest('hex');
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
    await completeUpload(deps, actor, { uploadId: started.uploadId, parts });
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
