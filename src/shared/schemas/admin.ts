import { z } from 'zod';
import { TIERS, type TRole, type TTier, type TUserCategory } from '../domain/enums';
import { ZEmail, ZNewPassword } from './common';

/** SPEC §5 messages for the admin forms, word for word. */
export const ADMIN_MESSAGES = {
  adminsOnly: 'Only administrators can access the admin dashboard.',
  fillAllFields: 'Please fill in all fields before saving',
  passwordAndReason: 'New password and reason are required',
  enterEmail: 'Please enter an email address',
  confirmDeleteUser: 'Are you sure you want to delete this user?',
  secondFactorRequired: 'Please confirm your identity with your authenticator app first.',
  secondFactorInvalid: 'That code is not right. Please check your authenticator app and try again.',
  secondFactorRateLimited: 'Too many codes tried. Please wait 15 minutes and try again.',
  lastAdmin: 'There must always be at least one admin.',
  demoteFirst: 'Remove admin rights from this user before deleting them.',
  userNotFound: 'User not found',
  deviceNotFound: 'Device association not found',
} as const;

export const ZUserIdParams = z.object({ userId: z.coerce.number().int().positive() });
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
  /** The code was checked in this session (D26: every admin session). */
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
  firstLogin: boolean;
  /** Recipients (and any other rows) that depend on this account (D23). */
  dependentCount: number;
  createdAt: string;
}

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

export const ZAdminResetPasswordBody = z.object({
  newPassword: z
    .string({ error: ADMIN_MESSAGES.passwordAndReason })
    .min(1, ADMIN_MESSAGES.passwordAndReason)
    .pipe(ZNewPassword),
  reason: z
    .string({ error: ADMIN_MESSAGES.passwordAndReason })
    .trim()
    .min(1, ADMIN_MESSAGES.passwordAndReason)
    .max(500, 'The reason must be at most 500 characters'),
  /** Ignored: the admin comes from the session. */
  adminId: z.unknown().optional(),
});
export type TAdminResetPasswordBody = z.input<typeof ZAdminResetPasswordBody>;

export const ZSetAdminBody = z.object({ isAdmin: z.boolean() });
export type TSetAdminBody = z.input<typeof ZSetAdminBody>;

export const ZDeleteUsersBody = z.object({
  ids: z
    .array(z.number().int().positive(), { error: 'Please choose at least one user' })
    .min(1, 'Please choose at least one user')
    .max(500, 'Please delete at most 500 users at a time'),
  /** D23: the admin saw the refusal and confirmed 'Delete user and their recipients'. */
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
  token: z.string().trim().min(1, 'This verification link is not complete.').max(200),
});
export interface TConfirmEmailResult {
  email: string;
  message: string;
}
