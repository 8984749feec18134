import type { TestDevice } from '../../setup/app';

/** A sign-in with a username and password on this device, through the real route. */
export function signInWithPassword(device: TestDevice, username: string, password: string) {
  return device.post('/api/login', { username, password, deviceId: device.deviceId });
}
