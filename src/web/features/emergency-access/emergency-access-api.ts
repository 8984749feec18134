import type { TEmergencyAccessBody } from '@shared/schemas/emergency-access';
import { apiRequest, isApiError } from '@web/lib/api-client';
import { proveCode } from '@web/lib/encryption/code-sign-in';
import { sendWithNewPassword } from '@web/lib/encryption/password-proof';

/**
 * POST /api/break-glass-reset. With a code: the /auth form. Without: the dashboard variant, only
 * for a next of kin signed in with their access code in the last 15 minutes: a session alone
 * must not be a takeover key.
 */
export function resetWithEmergencyCode(
  body: Omit<TEmergencyAccessBody, 'newPassword'> & { newPassword: string },
): Promise<{ message: string }> {
  const { newPassword, ...rest } = body;
  // For an owner with enhanced encryption on, only the new password's proof is sent.
  return sendWithNewPassword(newPassword, (field) =>
    apiRequest<{ message: string }>('/api/break-glass-reset', {
      method: 'POST',
      body: { ...rest, ...field },
    }),
  );
}

/**
 * The /auth form's reset: the code's proof goes in place of the code (which never leaves this
 * device), unless the server answers that this code was made by it, before encryption: then the
 * code as typed, once.
 */
export async function resetWithProvenCode(input: {
  nextOfKinEmail: string;
  emergencyCode: string;
  newPassword: string;
  /** Called once the proof is made (the slow part), before the request. */
  onProven?: () => void;
}): Promise<{ message: string }> {
  const { codeProof } = await proveCode(input.nextOfKinEmail, input.emergencyCode);
  input.onProven?.();
  const { nextOfKinEmail, newPassword, emergencyCode } = input;
  try {
    return await resetWithEmergencyCode({ nextOfKinEmail, newPassword, codeProof });
  } catch (error) {
    if (!isApiError(error, 'CODE_NEEDED')) throw error;
    return resetWithEmergencyCode({ nextOfKinEmail, newPassword, emergencyCode });
  }
}

export const EMERGENCY_TEXT = {
  failed: 'Emergency access failed',
  dialogTitle: 'Next of Kin Emergency Access',
  codePlaceholder: 'ABCD-EFGH-JKLM-NP23',
} as const;
