import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import { STATION_MESSAGES } from '../../../shared/schemas/stations';
import type { DbOrTx } from '../../db/client';
import {
  careHomeResidents,
  careHomes,
  careHomeStaff,
  careHomeStations,
  careHomeStationSessions,
  users,
} from '../../db/schema';
import { AppError } from '../../errors';

export const fullName = (person: { firstName: string; lastName: string }) =>
  `${person.firstName} ${person.lastName}`;

export type StationSessionRow = typeof careHomeStationSessions.$inferSelect;
type StationRow = typeof careHomeStations.$inferSelect;

export async function findStation(db: DbOrTx, deviceId: string) {
  const [row] = await db
    .select({ station: careHomeStations, home: careHomes })
    .from(careHomeStations)
    .innerJoin(careHomes, eq(careHomes.id, careHomeStations.careHomeId))
    .where(eq(careHomeStations.deviceId, deviceId));
  return row;
}

export async function requireStation(db: DbOrTx, deviceId: string) {
  const found = await findStation(db, deviceId);
  if (!found) throw new AppError('NOT_FOUND', STATION_MESSAGES.notStation);
  return found;
}

export async function findActiveStaffOfUser(db: DbOrTx, userId: number) {
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

export async function eligibleResidents(db: DbOrTx, homeId: number) {
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

export async function findStaffRow(db: DbOrTx, id: number) {
  const [row] = await db.select().from(careHomeStaff).where(eq(careHomeStaff.id, id));
  return row;
}

export async function staffAndStation(db: DbOrTx, session: StationSessionRow) {
  const staff = await findStaffRow(db, session.staffId);
  const [station] = await db
    .select()
    .from(careHomeStations)
    .where(eq(careHomeStations.deviceId, session.deviceId));
  return { staffName: staff ? fullName(staff) : 'A carer', station: station as StationRow };
}
