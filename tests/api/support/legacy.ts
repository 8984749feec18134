import { randomUUID } from 'node:crypto';
import { videos } from '../../../src/server/db/schema';
import {
  createOnboardedUser,
  createSessionFor,
  setTier,
  type TestApp,
  type TestDevice,
} from '../../setup/app';
import { createDeviceSignedInByCode } from './recipients';

/** A premium owner with a next of kin, and that next of kin signed in on a device of their own. */
export async function createOwnerAndNextOfKin(testApp: TestApp) {
  const owner = await createOnboardedUser(testApp);
  await setTier(testApp, owner.user.id, 'premium');
  const nextOfKinDevice = await createDeviceSignedInByCode(testApp, owner.nextOfKin.id);
  return { ...owner, nextOfKinDevice };
}

export type OwnerAndNextOfKin = Awaited<ReturnType<typeof createOwnerAndNextOfKin>>;

/** After the clock has moved past a session's life, the next of kin signs in again, as they would. */
export async function signInNextOfKinAgain(testApp: TestApp, owner: OwnerAndNextOfKin) {
  await createSessionFor(testApp, {
    userId: owner.nextOfKin.id,
    device: owner.nextOfKinDevice,
    method: 'email_access_code',
  });
}

/** A message already in the cloud for this recipient, as a finished upload leaves it. */
export async function insertCloudMessage(
  testApp: TestApp,
  ownerId: number,
  recipientId: number,
  title = 'For you',
): Promise<string> {
  const id = randomUUID();
  await testApp.db.insert(videos).values({
    id,
    creatorId: ownerId,
    recipientId,
    title,
    storageType: 'cloud',
    syncStatus: 'synced',
    cloudPath: `videos/${randomUUID()}`,
    byteSize: 1000,
    durationMs: 3000,
    mimeType: 'video/webm',
  });
  return id;
}

/** An owner's settings with the inactivity check on: 3 months away, then a 7-day wait. */
export const INACTIVITY_CHECK_ON = {
  waitingDays: 7,
  inactivityMonths: 3,
  showWaitingMessages: false,
} as const;

/** The owner's legacy settings saved through the real route. */
export function saveLegacySettings(
  owner: TestDevice,
  settings: { waitingDays: number; inactivityMonths: number | null; showWaitingMessages: boolean },
) {
  return owner.request({ method: 'PUT', url: '/api/legacy/settings', payload: settings });
}
