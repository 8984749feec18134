import { z } from 'zod';
import { EMERGENCY_CODE_LENGTH, ONE_TIME_CODE_LENGTH, isWellFormedCode } from '../domain/codes';
import { ZDeviceId, ZEmail, ZNewPassword, ZUserId, requiredText, singleLineText } from './common';
import { ZUsername } from './auth';
import { RECIPIENT_CATEGORIES, type TRecipientCategory } from '../domain/enums';

export { RECIPIENT_CATEGORIES, type TRecipientCategory } from '../domain/enums';

const ZEmergencyCode = z
  .string({ error: 'Emergency code is required' })
  .trim()
  .min(1, 'Emergency code is required')
  .refine((code) => isWellFormedCode(code, EMERGENCY_CODE_LENGTH), {
    message: 'The emergency code has 16 letters and numbers, like ABCD-EFGH-JKLM-NP23',
  });

const ZOneTimeCode = z
  .string({ error: 'Code is required' })
  .trim()
  .min(1, 'Code is required')
  .refine((code) => isWellFormedCode(code, ONE_TIME_CODE_LENGTH), {
    message: 'The code has 8 letters and numbers, like ABCD-EF23',
  });

/** POST /api/recipients. At onboarding the next of kin also gives phone and relationship. */
export const ZCreateRecipientBody = z
  .object({
    firstName: requiredText('First name is required'),
    lastName: requiredText('Last name is required'),
    email: ZEmail,
    category: z.enum(RECIPIENT_CATEGORIES, { error: 'Please select a category' }),
    phoneNumber: z
      .string()
      .trim()
      .max(40, 'Phone number is too long')
      .regex(/^[+()\d\s.-]*$/, 'Please enter a valid phone number')
      .optional(),
    relationship: singleLineText(60, 'Relationship is too long').optional(),
    /** Ignored: the creator always comes from the session, never from the body. */
    createdById: z.unknown().optional(),
  })
  .superRefine((body, ctx) => {
    if (body.category !== 'next_of_kin') return;
    if (!body.phoneNumber)
      ctx.addIssue({ code: 'custom', path: ['phoneNumber'], message: 'Phone number is required' });
    if (!body.relationship)
      ctx.addIssue({ code: 'custom', path: ['relationship'], message: 'Relationship is required' });
  });
export type TCreateRecipientBody = z.input<typeof ZCreateRecipientBody>;

export interface TRecipientCreated {
  id: number;
  category: TRecipientCategory;
  firstName: string;
  lastName: string;
  email: string;
  /** Shown once; only its hash is stored. */
  emergencyAccessCode: string;
}

export const ZCompleteOnboardingBody = z.object({
  onboardingCompletedAt: z.iso.datetime().optional(),
});

/** POST /api/break-glass-reset: the /auth form (with a code) or the dashboard variant (without). */
export const ZBreakGlassBody = z.object({
  nextOfKinEmail: ZEmail,
  emergencyCode: ZEmergencyCode.optional(),
  newPassword: ZNewPassword,
});
export type TBreakGlassBody = z.input<typeof ZBreakGlassBody>;

export const ZBreakGlassForm = z
  .object({
    nextOfKinEmail: ZEmail,
    emergencyCode: ZEmergencyCode,
    newPassword: ZNewPassword,
    confirmPassword: z.string(),
  })
  .refine((form) => form.newPassword === form.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });

export const ZForgotPasswordBody = z.object({ email: ZEmail });

export const ZCompleteResetBody = z.object({
  email: ZEmail,
  resetToken: ZOneTimeCode,
  newPassword: ZNewPassword,
});

export const ZCompleteResetForm = z
  .object({
    email: ZEmail,
    resetToken: ZOneTimeCode,
    newPassword: ZNewPassword,
    confirmPassword: z.string(),
  })
  .refine((form) => form.newPassword === form.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });

/** The dashboard Reset Password dialog: every field required, the one password policy. */
export const ZChangePasswordBody = z.object({
  currentPassword: z
    .string({ error: 'Current password is required' })
    .min(1, 'Current password is required')
    .max(256),
  newPassword: ZNewPassword,
});

export const ZChangePasswordForm = z
  .object({
    currentPassword: z.string().min(1, 'Current password is required'),
    newPassword: ZNewPassword,
    confirmPassword: z.string().min(1, 'Please confirm your new password'),
  })
  .refine((form) => form.newPassword === form.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });

export const ZSetupPasswordBody = z.object({ password: ZNewPassword });

export const ZSetupPasswordForm = z
  .object({ password: ZNewPassword, confirmPassword: z.string() })
  .refine((form) => form.password === form.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });

/** Moving an account to this device when its old one is lost or wiped. */
export const ZDeviceMoveRequestBody = z.object({
  username: ZUsername,
  password: z.string().min(1, 'Password is required').max(256),
  deviceId: ZDeviceId,
});

export const ZDeviceMoveCompleteBody = ZDeviceMoveRequestBody.extend({ code: ZOneTimeCode });

export interface TAuditLogEntry {
  id: number;
  eventType: string;
  userId: number | null;
  username: string | null;
  timestamp: string;
  ipAddress: string | null;
  successful: boolean;
  details: string | null;
  /**
   * Who did it, when not the account's owner: 'Ann Hale, next of kin', 'Administrator ada',
   * 'Someone using ann@example.com'. Null for the owner's own events.
   */
  actor: string | null;
}

export const ZAuditLogQuery = z.object({
  userId: ZUserId.optional(),
});
