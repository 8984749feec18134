import type { TUser } from '@shared/schemas/auth';
import { apiRequest } from '@web/lib/api-client';
import type { TMoveCredentials } from '@web/lib/auth-api';
import { sendWithPassword } from '@web/lib/encryption/password-proof';

/** Move the account here from a lost device, or add this device beside the others (paid plans). */
export type TDeviceAction = 'move' | 'add';

/** Step 1: the right password on a new device sends a code to the account's email. */
export function requestDeviceMove(
  credentials: TMoveCredentials,
  action: TDeviceAction = 'move',
): Promise<{ message: string; maskedEmail: string }> {
  return sendWithPassword(credentials.username, credentials.password, (field) =>
    apiRequest(`/api/device/${action}/request`, {
      method: 'POST',
      buildBody: (deviceId) => ({
        username: credentials.username.trim().toLowerCase(),
        ...field,
        deviceId,
      }),
    }),
  );
}

/** Step 2: the code moves the account here (or adds this device) and signs it in here. */
export function completeDeviceMove(
  credentials: TMoveCredentials,
  code: string,
  action: TDeviceAction = 'move',
): Promise<TUser> {
  return sendWithPassword(credentials.username, credentials.password, (field) =>
    apiRequest<TUser>(`/api/device/${action}/complete`, {
      method: 'POST',
      buildBody: (deviceId) => ({
        username: credentials.username.trim().toLowerCase(),
        ...field,
        deviceId,
        code,
      }),
    }),
  );
}
