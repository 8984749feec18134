import { and, eq, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  careHomeResidents,
  careHomes,
  careHomeStations,
  deviceResets,
  devices,
  users,
} from '../../db/schema';

export type DeviceRow = typeof devices.$inferSelect;

export async function findDeviceById(db: DbOrTx, id: string): Promise<DeviceRow | undefined> {
  const [row] = await db.select().from(devices).where(eq(devices.id, id));
  return row;
}

export async function insertDevice(
  db: DbOrTx,
  values: { fingerprintHash: string; deviceName: string; platform: string },
): Promise<DeviceRow> {
  const [row] = await db.insert(devices).values(values).returning();
  return row!;
}

/** lastSeen is written at most this often per device. */
export const DEVICE_SEEN_RESOLUTION_MS = 5 * 60_000;

/** Marks the device seen; at most one write every five minutes per device. */
export async function touchDevice(db: DbOrTx, id: string, now: Date): Promise<void> {
  const staleBefore = new Date(now.getTime() - DEVICE_SEEN_RESOLUTION_MS);
  await db
    .update(devices)
    .set({ lastSeen: now })
    .where(and(eq(devices.id, id), lt(devices.lastSeen, staleBefore)));
}

export async function findPrimaryDeviceOfUser(
  db: DbOrTx,
  userId: number,
): Promise<DeviceRow | undefined> {
  const [row] = await db
    .select()
    .from(devices)
    .where(and(eq(devices.userId, userId), eq(devices.isPrimary, true)));
  return row;
}

/** The primary account bound to a device, if any. */
export async function findPrimaryAccountOnDevice(db: DbOrTx, deviceId: string) {
  const [row] = await db
    .select({
      id: users.id,
      username: users.username,
      passwordHash: users.passwordHash,
      passwordKdf: users.passwordKdf,
    })
    .from(devices)
    .innerJoin(users, eq(users.id, devices.userId))
    .where(and(eq(devices.id, deviceId), eq(devices.isPrimary, true), eq(users.isPrimary, true)));
  return row;
}

export async function bindPrimaryDevice(
  db: DbOrTx,
  deviceId: string,
  userId: number,
): Promise<void> {
  await db.update(devices).set({ userId, isPrimary: true }).where(eq(devices.id, deviceId));
}

export async function unbindDevice(db: DbOrTx, deviceId: string): Promise<void> {
  await db.update(devices).set({ userId: null, isPrimary: false }).where(eq(devices.id, deviceId));
}

export async function insertDeviceReset(
  db: DbOrTx,
  values: typeof deviceResets.$inferInsert,
): Promise<void> {
  await db.insert(deviceResets).values(values);
}

/** An account's other devices: bound to it, not primary. */
export async function bindSecondaryDevice(
  db: DbOrTx,
  deviceId: string,
  userId: number,
): Promise<void> {
  await db.update(devices).set({ userId, isPrimary: false }).where(eq(devices.id, deviceId));
}

/** Devices bound to an account, its primary one included; `lock` holds them for the transaction. */
export async function countDevicesOfUser(
  db: DbOrTx,
  userId: number,
  options: { lock?: boolean } = {},
): Promise<number> {
  const query = db.select({ id: devices.id }).from(devices).where(eq(devices.userId, userId));
  const rows = options.lock ? await query.for('update') : await query;
  // A manager's limit counts the home's recording stations too, and the personal tablets of the
  // residents who live there: the plan's devices are the home's, however they are used.
  const stations = await db
    .select({ id: careHomeStations.deviceId })
    .from(careHomeStations)
    .innerJoin(careHomes, eq(careHomes.id, careHomeStations.careHomeId))
    .where(eq(careHomes.managerId, userId));
  const residentsTablets = await db
    .select({ id: devices.id })
    .from(devices)
    .innerJoin(careHomeResidents, eq(careHomeResidents.userId, devices.userId))
    .innerJoin(careHomes, eq(careHomes.id, careHomeResidents.careHomeId))
    .where(and(eq(careHomes.managerId, userId), eq(careHomeResidents.status, 'active')));
  return rows.length + stations.length + residentsTablets.length;
}

/** Moves the primary role: the old primary first (one primary per account is a unique index). */
export async function makeDevicePrimary(
  db: DbOrTx,
  userId: number,
  deviceId: string,
): Promise<void> {
  await db
    .update(devices)
    .set({ isPrimary: false })
    .where(and(eq(devices.userId, userId), eq(devices.isPrimary, true)));
  await db
    .update(devices)
    .set({ isPrimary: true })
    .where(and(eq(devices.id, deviceId), eq(devices.userId, userId)));
}
