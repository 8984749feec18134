import { and, asc, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import {
  STATION_IDLE_MS,
  STATION_MESSAGES,
  type TStationAnswer,
} from '../../../shared/schemas/stations';
import type { AppDeps } from '../../deps';
import {
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
import { requireOwnHome } from './care-homes.service';
import {
  findActiveStaffOfUser,
  findStation,
  findStaffRow,
  fullName,
  requireStation,
  type StationSessionRow,
} from './stations.repository';

/** Wrong PINs in a row before the PIN rests, and for how long. */
const PIN_TRIES = 5;
const PIN_LOCK_MS = 15 * 60_000;
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
