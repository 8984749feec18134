import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { careHomeResidents, careHomes, devices, users } from '../../../src/server/db/schema';
import type { TStaffMember } from '../../../src/shared/schemas/care-homes';
import {
  createPrimaryUser,
  createSessionFor,
  setTier,
  TestDevice,
  type SharedTestApp,
  type TestApp,
} from '../../setup/app';

// Care homes in the API tests: a home with residents, as its manager sets it up.

export const CARE_HOME_CSV_HEADER =
  'first_name,last_name,room,nok_first_name,nok_last_name,nok_email,nok_relationship,consent_basis,attorney_name';

/** A manager on Professional whose home, named `name`, is set up: no staff or residents yet. */
export async function makeHomeManager(t: TestApp, name: string) {
  const manager = await createPrimaryUser(t);
  await t.db
    .update(users)
    .set({ subscriptionTier: 'professional' })
    .where(eq(users.id, manager.user.id));
  const saved = await manager.device.request({
    method: 'PUT',
    url: '/api/care-home',
    payload: { name },
  });
  expect(saved.statusCode).toBe(200);
  return manager;
}

/**
 * A manager on Professional with a home named `name` and three residents imported from a CSV file,
 * each with a next of kin (no code yet: codes come with the printed letters).
 */
export async function makeCareHome(t: TestApp, name: string) {
  const manager = await makeHomeManager(t, name);
  const tag = manager.user.username;
  const csv = [
    CARE_HOME_CSV_HEADER,
    `Margaret,Hill,12,Susan,Hill,susan.${tag}@example.test,Daughter,resident,`,
    `Arthur,Jones,14,Tom,Jones,tom.${tag}@example.test,Son,resident,`,
    `Ivy,Green,7,Rose,Green,rose.${tag}@example.test,Niece,resident,`,
    '',
  ].join('\r\n');
  const imported = await manager.device.post('/api/care-home/residents/import', {
    csv,
    dryRun: false,
  });
  expect(imported.statusCode).toBe(200);
  const [home] = await t.db
    .select()
    .from(careHomes)
    .where(eq(careHomes.managerId, manager.user.id));
  const residents = await t.db
    .select({ linkId: careHomeResidents.id, userId: users.id, firstName: users.firstName })
    .from(careHomeResidents)
    .innerJoin(users, eq(users.id, careHomeResidents.userId))
    .where(eq(careHomeResidents.careHomeId, home!.id));
  const byName = (first: string) => residents.find((row) => row.firstName === first)!;
  return {
    manager,
    home: home!,
    margaret: byName('Margaret'),
    arthur: byName('Arthur'),
    ivy: byName('Ivy'),
  };
}

/** A carer invited by the manager by email, who joined the home with their own account. */
export async function addCarer(
  t: SharedTestApp,
  manager: { device: TestDevice; user: { username: string } },
) {
  const email = `carer.${manager.user.username}@example.test`;
  const invited = await manager.device.post('/api/care-home/staff', {
    firstName: 'Jane',
    lastName: 'Doe',
    email,
  });
  expect(invited.statusCode).toBe(201);
  const mail = await t.smtp.waitFor((m) => m.to.includes(email));
  const token = /\/care-home\/join#([\w-]+)/.exec(mail.text)![1]!;
  const carer = await createPrimaryUser(t, { email });
  expect((await carer.device.post('/api/care-home/staff/accept', { token })).statusCode).toBe(200);
  return carer;
}

type Person = Awaited<ReturnType<typeof createPrimaryUser>>;

/** A carer who joined the home (`addCarer`) and set a PIN of their own for its tablets. */
export async function makeCarer(t: SharedTestApp, manager: Person, pin = '4821') {
  const carer = await addCarer(t, manager);
  const set = await carer.device.request({
    method: 'PUT',
    url: '/api/care-home/pin',
    payload: { pin },
  });
  expect(set.statusCode).toBe(204);
  const staff = (await manager.device.get('/api/care-home/staff')).json<TStaffMember[]>();
  const staffId = staff.find((member) => member.email === carer.user.email)!.id;
  return { carer, staffId };
}

/**
 * The resident signed in on a tablet of their own, bound to their account as its main device;
 * on a plan of their own when `tier` is given (at a station the home's plan counts instead).
 */
export async function residentTablet(
  t: TestApp,
  userId: number,
  tier?: 'free' | 'premium',
): Promise<TestDevice> {
  const tablet = await TestDevice.create(t.app);
  await t.db
    .update(devices)
    .set({ userId, isPrimary: true })
    .where(eq(devices.id, tablet.deviceId));
  await createSessionFor(t, { userId, device: tablet, method: 'username_password' });
  if (tier) await setTier(t, userId, tier);
  return tablet;
}

/** The manager signs in on the home's tablet and makes it the station. */
export async function makeStation(t: TestApp, manager: Person, name = 'Lounge tablet') {
  const tablet = await TestDevice.create(t.app);
  await createSessionFor(t, {
    userId: manager.user.id,
    device: tablet,
    method: 'username_password',
  });
  const made = await tablet.post('/api/care-home/station', { name });
  expect(made.statusCode).toBe(201);
  return tablet;
}

/** A few bytes that start as a WebM file does: what a station sends as a take. */
export const STATION_WEBM = Buffer.concat([
  Buffer.from([0x1a, 0x45, 0xdf, 0xa3]),
  Buffer.alloc(4000, 7),
]);

/** A take saved at a signed-in station for the chosen resident, for one of their recipients. */
export function saveStationTake(
  tablet: TestDevice,
  recipientId: number,
  options: { takeId?: string; careTeam?: 'yes' | 'no' } = {},
) {
  const query = new URLSearchParams({
    takeId: options.takeId ?? randomUUID(),
    recipientId: String(recipientId),
    durationMs: '4000',
    ...(options.careTeam ? { careTeam: options.careTeam } : {}),
  });
  return tablet.request({
    method: 'POST',
    url: `/api/station/recordings?${query.toString()}`,
    payload: STATION_WEBM,
    headers: { 'content-type': 'video/webm' },
  });
}
