// A next of kin's emergency access: with the emergency code they set a new password for the
// account's owner (POST /api/break-glass-reset).
import { z } from 'zod';
import { EMERGENCY_CODE_LENGTH, isWellFormedCode } from '../domain/codes';
import { ZEmail, ZNewPassword, confirmsPassword } from './common';
import { ENCRYPTION_MESSAGES, ZCodeProof } from './encryption';
import { ZNewPasswordProofFields, oneFormOfPassword } from './derived-password';

const ZEmergencyCode = z
  .string({ error: 'Emergency code is required' })
  .trim()
  .min(1, 'Emergency code is required')
  .refine((code) => isWellFormedCode(code, EMERGENCY_CODE_LENGTH), {
    message: 'The emergency code has 16 letters and numbers, like ABCD-EFGH-JKLM-NP23',
  });

/**
 * POST /api/break-glass-reset: the /auth form (with the code's proof, or after a 401 `CODE_NEEDED`
 * the code as typed) or the dashboard variant (with neither).
 */
export const ZEmergencyAccessBody = z
  .object({
    nextOfKinEmail: ZEmail,
    emergencyCode: ZEmergencyCode.optional(),
    codeProof: ZCodeProof.optional(),
    newPassword: ZNewPassword.optional(),
    /** The owner's account has enhanced encryption on: the new password's proof and settings. */
    ...ZNewPasswordProofFields,
  })
  .refine((body) => !(body.emergencyCode && body.codeProof), {
    message: ENCRYPTION_MESSAGES.proofOrCode,
    path: ['codeProof'],
  })
  .superRefine(oneFormOfPassword('newPassword', 'newPasswordProof', 'newPasswordKdf'));
export type TEmergencyAccessBody = z.input<typeof ZEmergencyAccessBody>;

export const ZEmergencyAccessForm = z
  .object({
    nextOfKinEmail: ZEmail,
    emergencyCode: ZEmergencyCode,
    newPassword: ZNewPassword,
    confirmPassword: z.string(),
  })
  .refine(...confirmsPassword('newPassword'));
