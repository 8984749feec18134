import { z } from 'zod';
import { DEVICE_ID_PATTERN } from '../domain/device';
import {
  TIERS,
  type TRole,
  type TSubscriptionStatus,
  type TTier,
  type TUserCategory,
} from '../domain/enums';
import { ADMIN_MESSAGES } from '../domain/admin-messages';
import {
  MAX_ID,
  SINGLE_LINE_MESSAGE,
  ZEmail,
  ZNewPassword,
  ZUserId,
  isSingleLine,
  zId,
} from './common';
import { ZNewPasswordProofFields, oneFormOfPassword } from './derived-password';

export { ADMIN_MESSAGES };

export const ZUserIdParams = z.object({ userId: ZUserId });
export const ZDeviceIdParams = z.object({ deviceId: z.uuid({ error: 'Device ID not found' }) });

/** A 6-digit TOTP code, or a recovery code (XXXX-XXXX-XXXX-XXXX; case, spaces, hyphens free). */
export const ZSecondFactorBody = z.object({
  code: z
    .string({ error: 'Please enter the code' })
    .trim()
    .min(1, 'Please enter the code')
    .max(40, 'That code is too long'),
});
export type TSecondFactorBody = z.input<typeof ZSecondFactorBody>;

/** GET /api/admin/2fa: where this admin and this session stand. */
export interface TSecondFactorStatus {
  isEnrolled: boolean;
  /** The code was checked in this session: an admin gives it again in every session. */
  isVerified: boolean;
  recoveryCodesLeft: number;
}

/** POST /api/admin/2fa/enrol: a fresh secret to add to an authenticator app. */
export interface TSecondFactorEnrolment {
  secret: string;
  otpauthUri: string;
  /** The otpauth URI as a QR code, a data: URL of a PNG. */
  qrCodeDataUrl: string;
}

/** POST /api/admin/2fa/confirm: recovery codes, shown once. */
export interface TSecondFactorConfirmed {
  recoveryCodes: string[];
}

export interface TAdminUser {
  id: number;
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  isAdmin: boolean;
  role: TRole;
  isPrimary: boolean;
  category: TUserCategory;
  createdById: number | null;
  subscriptionTier: TTier;
  isVIP: boolean;
  tierOverriddenBy: number | null;
  tierOverriddenAt: string | null;
  tierOverrideReason: string | null;
  vipOverriddenBy: number | null;
  vipOverriddenAt: string | null;
  /** Billing, as the payment provider last reported it. */
  subscriptionStatus: TSubscriptionStatus;
  /** The plan the subscription pays for; null without one. */
  billedTier: TTier | null;
  /** ISO; the end of the paid period. */
  currentPeriodEnd: string | null;
  /** Cancelled: the plan stays until currentPeriodEnd, then ends. */
  cancelAtPeriodEnd: boolean;
  /** ISO; after a failed payment the plan stays until then. */
  graceEndsAt: string | null;
  /** An administrator's tier or VIP setting is in force: it wins over billing. */
  isSetByAdministrator: boolean;
  firstLogin: boolean;
  /** Recipients (and any other rows) that depend on this account, named before they go. */
  dependentCount: number;
  createdAt: string;
}

/** Both admin lists are read a page at a time: an installation may hold 100,000 accounts. */
export const ADMIN_PAGE_SIZE = { default: 50, max: 200 } as const;

export const ADMIN_LIST_MESSAGES = {
  badLimit: `The page size must be a whole number from 1 to ${ADMIN_PAGE_SIZE.max}.`,
  badCursor: 'This list position is not valid. Please reload the list.',
  searchTooLong: 'Please search with at most 100 characters.',
} as const;

const ZPageLimit = z.coerce
  .number({ error: ADMIN_LIST_MESSAGES.badLimit })
  .int(ADMIN_LIST_MESSAGES.badLimit)
  .min(1, ADMIN_LIST_MESSAGES.badLimit)
  .max(ADMIN_PAGE_SIZE.max, ADMIN_LIST_MESSAGES.badLimit)
  .default(ADMIN_PAGE_SIZE.default);

/** GET /api/admin/users: accounts by id, after the last id of the page before. */
export const ZAdminUsersQuery = z.object({
  limit: ZPageLimit,
  after: z
    .string()
    .regex(/^\d{1,10}$/, ADMIN_LIST_MESSAGES.badCursor)
    .transform(Number)
    .refine((id) => id >= 1 && id <= MAX_ID, ADMIN_LIST_MESSAGES.badCursor)
    .optional(),
  /** Words that must each appear in the username, email, first or last name. */
  q: z
    .string()
    .trim()
    .max(100, ADMIN_LIST_MESSAGES.searchTooLong)
    .refine(isSingleLine, { message: SINGLE_LINE_MESSAGE })
    .transform((value) => value || undefined)
    .optional(),
});
export type TAdminUsersQuery = z.output<typeof ZAdminUsersQuery>;

export interface TAdminUsersPage {
  users: TAdminUser[];
  /** Pass as `after` for the next page; null on the last page. */
  nextCursor: string | null;
}

/**
 * Where a page of device associations ends: the device's creation time (to the microsecond, as
 * Postgres keeps it), the device and the user, since one device can be linked to several users.
 */
export interface TDeviceCursor {
  createdAt: string;
  deviceId: string;
  userId: number;
}

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** Opaque to clients: `{createdAt}~{deviceId}~{userId}`. */
export function encodeDeviceCursor(cursor: TDeviceCursor): string {
  return `${cursor.createdAt}~${cursor.deviceId}~${cursor.userId}`;
}

function decodeDeviceCursor(value: string): TDeviceCursor | null {
  const [createdAt = '', deviceId = '', userId = '', ...rest] = value.split('~');
  if (rest.length > 0 || !CURSOR_TIME.test(createdAt) || !DEVICE_ID_PATTERN.test(deviceId)) {
    return null;
  }
  // A well-formed but impossible time (month 13, 30 February) does not survive the round trip;
  // Postgres has no year 0.
  const millis = `${createdAt.slice(0, 23)}Z`;
  const date = new Date(millis);
  if (Number.isNaN(date.getTime()) || date.toISOString() !== millis) return null;
  if (createdAt.startsWith('0000')) return null;
  if (!/^\d{1,10}$/.test(userId) || Number(userId) < 1 || Number(userId) > MAX_ID) return null;
  return { createdAt, deviceId: deviceId.toLowerCase(), userId: Number(userId) };
}

/** GET /api/admin/devices: newest device first, after the cursor of the page before. */
export const ZAdminDevicesQuery = z.object({
  limit: ZPageLimit,
  after: z
    .string()
    .max(100, ADMIN_LIST_MESSAGES.badCursor)
    .transform((value, ctx) => {
      const cursor = decodeDeviceCursor(value);
      if (!cursor) {
        ctx.addIssue({ code: 'custom', message: ADMIN_LIST_MESSAGES.badCursor });
        return z.NEVER;
      }
      return cursor;
    })
    .optional(),
});
export type TAdminDevicesQuery = z.output<typeof ZAdminDevicesQuery>;

/** GET /api/admin/primary-users: for the 'Recipient of {name}' badge. */
export interface TAdminPrimaryUser {
  id: number;
  username: string;
  firstName: string;
  lastName: string;
}

export const ZOverrideTierBody = z.object({
  tier: z.enum(TIERS, { error: ADMIN_MESSAGES.fillAllFields }),
  isVIP: z.boolean({ error: ADMIN_MESSAGES.fillAllFields }),
  reason: z
    .string({ error: ADMIN_MESSAGES.fillAllFields })
    .trim()
    .min(1, ADMIN_MESSAGES.fillAllFields)
    .max(500, 'The reason must be at most 500 characters'),
  /** Ignored: who overrode comes from the session. */
  overriddenBy: z.unknown().optional(),
});
export type TOverrideTierBody = z.input<typeof ZOverrideTierBody>;

/** The admin's Reset Password form: a temporary password and the reason. */
export const ZAdminResetPasswordForm = z.object({
  newPassword: z
    .string({ error: ADMIN_MESSAGES.passwordAndReason })
    .min(1, ADMIN_MESSAGES.passwordAndReason)
    .pipe(ZNewPassword),
  reason: z
    .string({ error: ADMIN_MESSAGES.passwordAndReason })
    .trim()
    .min(1, ADMIN_MESSAGES.passwordAndReason)
    .max(500, 'The reason must be at most 500 characters'),
});
export type TAdminResetPasswordForm = z.output<typeof ZAdminResetPasswordForm>;

/** The new password as typed, or (the account has enhanced encryption on) its proof and settings. */
export const ZAdminResetPasswordBody = z
  .object({
    newPassword: z
      .string({ error: ADMIN_MESSAGES.passwordAndReason })
      .min(1, ADMIN_MESSAGES.passwordAndReason)
      .pipe(ZNewPassword)
      .optional(),
    ...ZNewPasswordProofFields,
    reason: z
      .string({ error: ADMIN_MESSAGES.passwordAndReason })
      .trim()
      .min(1, ADMIN_MESSAGES.passwordAndReason)
      .max(500, 'The reason must be at most 500 characters'),
    /** Ignored: the admin comes from the session. */
    adminId: z.unknown().optional(),
  })
  .superRefine(oneFormOfPassword('newPassword', 'newPasswordProof', 'newPasswordKdf'));
export type TAdminResetPasswordBody = z.input<typeof ZAdminResetPasswordBody>;

export const ZSetAdminBody = z.object({ isAdmin: z.boolean() });
export type TSetAdminBody = z.input<typeof ZSetAdminBody>;

export const ZDeleteUsersBody = z.object({
  ids: z
    .array(zId(ADMIN_MESSAGES.userNotFound), { error: 'Please choose at least one user' })
    .min(1, 'Please choose at least one user')
    .max(500, 'Please delete at most 500 users at a time'),
  /** The admin saw the refusal and confirmed 'Delete user and their recipients'. */
  includeRecipients: z.boolean().optional().default(false),
});
export type TDeleteUsersBody = z.input<typeof ZDeleteUsersBody>;

export interface TDeleteUsersResult {
  message: string;
  deletedIds: number[];
}

/** The DELETE /api/admin/users refusal (409 HAS_DEPENDENTS) names who would go with whom. */
export interface TUsersWithDependents {
  code: 'HAS_DEPENDENTS';
  message: string;
  users: Array<{ id: number; username: string; recipients: string[] }>;
}

export interface TAdminDevice {
  deviceId: string;
  userId: number;
  username: string;
  firstName: string;
  lastName: string;
  /** The user is a primary account (the 'Primary' badge). */
  isPrimaryUser: boolean;
  /** This device is that account's primary device. */
  isPrimary: boolean;
  deviceName: string;
  createdAt: string;
  lastSyncAt: string | null;
  lastSeen: string;
}

export interface TAdminDevicesPage {
  devices: TAdminDevice[];
  /** Pass as `after` for the next page; null on the last page. */
  nextCursor: string | null;
}

export const ZEmailToolBody = z.object({
  email: z
    .string({ error: ADMIN_MESSAGES.enterEmail })
    .trim()
    .min(1, ADMIN_MESSAGES.enterEmail)
    .pipe(ZEmail),
});
export type TEmailToolBody = z.input<typeof ZEmailToolBody>;

export interface TVerifyEmailResult {
  success: boolean;
  message: string;
  error?: string;
}

export interface TTestEmailResult {
  success: boolean;
  code: string | null;
  message: string;
}

/** GET /api/admin/email: how mail leaves this installation, and recent verifications. */
export interface TEmailSettings {
  mode: 'sandbox' | 'smtp';
  /** Sandbox: the outbox folder on the server; SMTP: the server's host name. */
  destination: string;
  from: string;
  verifications: Array<{ email: string; requestedAt: string; verifiedAt: string | null }>;
}

export const ZConfirmEmailBody = z.object({
  token: z
    .string()
    .trim()
    .min(1, 'This verification link is not complete.')
    .max(200)
    .refine(isSingleLine, { message: SINGLE_LINE_MESSAGE }),
});
export interface TConfirmEmailResult {
  email: string;
  message: string;
}
