// Forgotten, changed and first passwords: the request bodies and the browser forms.
import { z } from 'zod';
import { ZEmail, ZNewPassword, ZOneTimeCode, confirmsPassword } from './common';
import { ZNewPasswordProofFields, ZPasswordProof, oneFormOfPassword } from './derived-password';
import { ZKeyWrap } from './encryption';

export const ZForgotPasswordBody = z.object({ email: ZEmail });

/** The new password as typed, or (enhanced encryption on) its proof and settings. */
export const ZCompleteResetBody = z
  .object({
    email: ZEmail,
    resetToken: ZOneTimeCode,
    newPassword: ZNewPassword.optional(),
    ...ZNewPasswordProofFields,
  })
  .superRefine(oneFormOfPassword('newPassword', 'newPasswordProof', 'newPasswordKdf'));

export const ZCompleteResetForm = z
  .object({
    email: ZEmail,
    resetToken: ZOneTimeCode,
    newPassword: ZNewPassword,
    confirmPassword: z.string(),
  })
  .refine(...confirmsPassword('newPassword'));

/** The dashboard Reset Password dialog: every field required, the one password policy. */
export const ZChangePasswordBody = z
  .object({
    currentPassword: z
      .string({ error: 'Current password is required' })
      .min(1, 'Current password is required')
      .max(256)
      .optional(),
    currentPasswordProof: ZPasswordProof.optional(),
    newPassword: ZNewPassword.optional(),
    ...ZNewPasswordProofFields,
    /** Enhanced encryption on: the account key wrapped under the new password's key half. */
    newPasswordWrap: ZKeyWrap.optional(),
  })
  .superRefine(oneFormOfPassword('currentPassword', 'currentPasswordProof'))
  .superRefine(oneFormOfPassword('newPassword', 'newPasswordProof', 'newPasswordKdf'));

export const ZChangePasswordForm = z
  .object({
    currentPassword: z.string().min(1, 'Current password is required'),
    newPassword: ZNewPassword,
    confirmPassword: z.string().min(1, 'Please confirm your new password'),
  })
  .refine(...confirmsPassword('newPassword'));

export const ZSetupPasswordBody = z
  .object({ password: ZNewPassword.optional(), ...ZNewPasswordProofFields })
  .superRefine(oneFormOfPassword('password', 'newPasswordProof', 'newPasswordKdf'));

export const ZSetupPasswordForm = z
  .object({ password: ZNewPassword, confirmPassword: z.string() })
  .refine(...confirmsPassword('password'));
