import type { TUser } from '@shared/schemas/auth';
import { apiRequest } from '@web/lib/api-client';

export interface TMoveCredentials {
  username: string;
  password: string;
}

/** D18 step 1: the right password on a new device sends a code to the account's email. */
export function requestDeviceMove(
  credentials: TMoveCredentials,
): Promise<{ message: string; maskedEmail: string }> {
  return apiRequest('/api/device/move/request', {
    method: 'POST',
    buildBody: (deviceId) => ({
      username: credentials.username.trim().toLowerCase(),
      password: credentials.password,
      deviceId,
    }),
  });
}

/** D18 step 2: the code moves the account to this device and signs it in here. */
export function completeDeviceMove(credentials: TMoveCredentials, code: string): Promise<TUser> {
  return apiRequest('/api/device/move/complete', {
    method: 'POST',
    buildBody: (deviceId) => ({
      username: credentials.username.trim().toLowerCase(),
      password: credentials.password,
      deviceId,
      code,
    }),
  });
}
