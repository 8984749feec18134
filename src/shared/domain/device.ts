/** A device id is an 8-4-4-4-12 hex UUID; anything else is discarded. */
export const DEVICE_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isValidDeviceId(value: unknown): value is string {
  return typeof value === 'string' && DEVICE_ID_PATTERN.test(value);
}

export const DEVICE_HEADER = 'x-device-id';

/** Local and session storage keys. */
export const STORAGE_KEYS = {
  deviceId: 'deviceId',
  deviceStatus: 'deviceStatus',
  currentUser: 'currentUser',
  cookieConsent: 'cookieConsent',
} as const;
