import type { TUser } from '@shared/schemas/auth';
import { apiRequest } from '@web/lib/api-client';
import { sendWithCredentials, type TMoveCredentials } from '@web/lib/auth-api';

/** Move the account here from a lost device, or add this device beside the others (paid plans). */
export type TDeviceAction = 'move' | 'add';

/** Step 1: the right password on a new device sends a code to the account's email. */
export function requestDeviceMove(
  credentials: TMoveCredentials,
  action: TDeviceAction = 'move',
): Promise<{ message: string; maskedEmail: string }> {
  return sendWithCredentials(credentials, (fields) =>
    apiRequest(`/api/device/${action}/request`, {
      method: 'POST',
      buildBody: (deviceId) => ({ ...fields, deviceId }),
    }),
  );
}

/** Step 2: the code moves the account here (or adds this device) and signs it in here. */
export function completeDeviceMove(
  credentials: TMoveCredentials,
  code: string,
  action: TDeviceAction = 'move',
): Promise<TUser> {
  return sendWithCredentials(credentials, (fields) =>
    apiRequest<TUser>(`/api/device/${action}/complete`, {
      method: 'POST',
      buildBody: (deviceId) => ({ ...fields, deviceId, code }),
    }),
  );
}
