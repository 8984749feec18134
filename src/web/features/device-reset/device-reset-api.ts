import type { TResetDeviceResponse } from '@shared/schemas/devices';
import { apiRequest } from '@web/lib/api-client';
import { sendWithPassword, type TPasswordField } from '@web/lib/encryption/password-proof';

/**
 * Frees this device from its account; the owner proves it by session or password, since holding
 * the tablet must not be enough.
 */
export function resetDeviceAssociation(password?: string): Promise<TResetDeviceResponse> {
  const send = (field: TPasswordField | null) =>
    apiRequest<TResetDeviceResponse>('/api/reset-device', {
      method: 'POST',
      body: { mode: 'owner', ...field },
    });
  if (!password) return send(null);
  // The account's password as its proof when enhanced encryption is on: never sent as typed.
  return sendWithPassword({ boundToThisDevice: true }, password, send);
}

/** Gives this browser a brand-new device identity; the old association stays with the old id. */
export function emergencyResetDevice(): Promise<TResetDeviceResponse> {
  return apiRequest('/api/reset-device', { method: 'POST', body: { mode: 'emergency' } });
}

export const RESET_TEXT = {
  resetTitle: 'Reset Device Association',
  emergencyTitle: 'Emergency Device Reset',
  failed: 'Reset Failed',
  succeeded: 'Device Reset Successful',
  alreadyClear: 'Device Already Clear',
} as const;
