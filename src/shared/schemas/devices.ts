import { z } from 'zod';
import { SINGLE_LINE_MESSAGE, ZDeviceId, ZOneTimeCode, isSingleLine } from './common';
import { ZPasswordCredentials } from './auth';
import { ZPasswordProof, oneFormOfPassword } from './derived-password';

/** POST /api/device/register: the browser's first call, made before it has a device id. */
export const ZDeviceRegisterBody = z.object({
  fingerprint: z
    .string({ error: 'Fingerprint is required' })
    .trim()
    .min(1, 'Fingerprint is required')
    .max(2000)
    .refine(isSingleLine, { message: SINGLE_LINE_MESSAGE }),
});
export type TDeviceRegisterBody = z.input<typeof ZDeviceRegisterBody>;

export interface TDeviceRegisterResponse {
  deviceId: string;
}

/** GET /api/device/status. Never names another account. */
export interface TDeviceStatus {
  deviceId: string;
  /** This device is the signed-in user's primary device (signed out: it holds a primary account). */
  isPrimary: boolean;
  /** Signed in: the user has a primary device. Signed out: this device holds a primary account. */
  hasPrimaryDevice: boolean;
  /** Only the signed-in user's own primary device id; null when signed out. */
  primaryDeviceId: string | null;
  lastSyncAt: string | null;
}

/**
 * POST /api/reset-device. Holding the tablet must not unbind someone else's account, yet a shared
 * care-home tablet can still be reused (docs/decisions/002-device-reset-owner-and-emergency.md).
 * - mode 'owner' (default): frees this device's association when the caller is the bound
 *   account (its session on this device) or gives that account's password.
 * - mode 'emergency': this browser gets a fresh device identity; the old association stays.
 */
export const ZResetDeviceBody = z.object({
  mode: z.enum(['owner', 'emergency']).default('owner'),
  password: z.string().max(256).optional(),
  /** The password's proof, for an account with enhanced encryption on. */
  passwordProof: ZPasswordProof.optional(),
});
export type TResetDeviceBody = z.input<typeof ZResetDeviceBody>;

export interface TResetDeviceResponse {
  message: string;
  reset: boolean;
  /** The freed account's username, only when the caller proved they own it. */
  username: string | null;
  /** Emergency reset only: the browser's new device id. */
  deviceId?: string;
}

/** POST /api/device/set-primary: this device becomes the account's primary device. */
export const ZSetPrimaryBody = z.object({ deviceId: ZDeviceId });
export type TSetPrimaryBody = z.input<typeof ZSetPrimaryBody>;

/** Moving an account to this device when its old one is lost or wiped. */
const ZDeviceMoveFields = ZPasswordCredentials.extend({ deviceId: ZDeviceId });
export const ZDeviceMoveRequestBody = ZDeviceMoveFields.superRefine(
  oneFormOfPassword('password', 'passwordProof'),
);

export const ZDeviceMoveCompleteBody = ZDeviceMoveFields.extend({ code: ZOneTimeCode }).superRefine(
  oneFormOfPassword('password', 'passwordProof'),
);
