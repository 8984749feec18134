// Forgotten, changed and first passwords: the request bodies and the browser forms.
import { z } from 'zod';
import { ZEmail, ZNewPassword, ZOneTimeCode, confirmsPassword } from './common';

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
  .refine(...confirmsPassword('newPassword'));

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
  .refine(...confirmsPassword('newPassword'));

export const ZSetupPasswordBody = z.object({ password: ZNewPassword });

export const ZSetupPasswordForm = z
  .object({ password: ZNewPassword, confirmPassword: z.string() })
  .refine(...confirmsPassword('password'));
