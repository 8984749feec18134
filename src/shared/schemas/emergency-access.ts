// A next of kin's emergency access: with the emergency code they set a new password for the
// account's owner (POST /api/break-glass-reset).
import { z } from 'zod';
import { EMERGENCY_CODE_LENGTH, isWellFormedCode } from '../domain/codes';
import { ZEmail, ZNewPassword, confirmsPassword } from './common';

const ZEmergencyCode = z
  .string({ error: 'Emergency code is required' })
  .trim()
  .min(1, 'Emergency code is required')
  .refine((code) => isWellFormedCode(code, EMERGENCY_CODE_LENGTH), {
    message: 'The emergency code has 16 letters and numbers, like ABCD-EFGH-JKLM-NP23',
  });

/** POST /api/break-glass-reset: the /auth form (with a code) or the dashboard variant (without). */
export const ZEmergencyAccessBody = z.object({
  nextOfKinEmail: ZEmail,
  emergencyCode: ZEmergencyCode.optional(),
  newPassword: ZNewPassword,
});
export type TEmergencyAccessBody = z.input<typeof ZEmergencyAccessBody>;

export const ZEmergencyAccessForm = z
  .object({
    nextOfKinEmail: ZEmail,
    emergencyCode: ZEmergencyCode,
    newPassword: ZNewPassword,
    confirmPassword: z.string(),
  })
  .refine(...confirmsPassword('newPassword'));
