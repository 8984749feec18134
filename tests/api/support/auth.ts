import { expect } from 'vitest';
import { splitSecret, type TKdfParams } from '../../../src/shared/sealing';
import type { TestDevice } from '../../setup/app';

/** A sign-in with a username and password on this device, through the real route. */
export function signInWithPassword(device: TestDevice, username: string, password: string) {
  return device.post('/api/login', { username, password, deviceId: device.deviceId });
}

/** The settings the browser splits this name's password with. */
export async function prelogin(device: TestDevice, username: string) {
  const res = await device.post('/api/auth/prelogin', { username });
  expect(res.statusCode).toBe(200);
  return res.json<{ kdf: TKdfParams }>().kdf;
}

/** The password's sign-in half, made as the browser makes it. */
export async function proofFor(device: TestDevice, username: string, password: string) {
  return (await splitSecret('password', password, await prelogin(device, username))).signInHalf;
}
