import { expect } from 'vitest';
import type { TRecipientHome } from '../../../src/shared/schemas/recipients';
import { createSessionFor, TestDevice, type TestApp } from '../../setup/app';

/** How a recipient's access code is shown: four groups of four letters and digits. */
export const ACCESS_CODE_FORMAT = /^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/;

/** A recipient's sign-in with their email and emailed access code, through the real route. */
export function signInWithCode(
  device: TestDevice,
  recipient: { email: string; emergencyAccessCode: string },
) {
  return device.post('/api/login', {
    email: recipient.email,
    password: recipient.emergencyAccessCode,
    method: 'email_access_code',
    deviceId: device.deviceId,
  });
}

/**
 * A phone of the recipient's own, signed in as their access code signs them in (the session
 * written directly, `createdAt` ago when a rule depends on how long ago).
 */
export async function createDeviceSignedInByCode(
  testApp: TestApp,
  userId: number,
  options: { createdAt?: Date } = {},
): Promise<TestDevice> {
  const device = await TestDevice.create(testApp.app);
  await createSessionFor(testApp, {
    userId,
    device,
    method: 'email_access_code',
    ...(options.createdAt ? { createdAt: options.createdAt } : {}),
  });
  return device;
}

/** What a recipient's home page shows them. */
export async function fetchRecipientHome(device: TestDevice): Promise<TRecipientHome> {
  const res = await device.get('/api/recipient-home');
  expect(res.statusCode).toBe(200);
  return res.json<TRecipientHome>();
}
