import { apiRequest } from '@web/lib/api-client';
import { splitPasswordChange, sendWithNewPassword } from '@web/lib/encryption/password-proof';

interface TMessage {
  message: string;
}

/** Forgot password: always the same neutral answer, whether or not the account exists. */
export function requestPasswordReset(email: string): Promise<TMessage> {
  return apiRequest('/api/temporary-password-reset', { method: 'POST', body: { email } });
}

/** With enhanced encryption on, only the new password's proof is sent (see password-proof). */
export function completePasswordReset(input: {
  email: string;
  resetToken: string;
  newPassword: string;
}): Promise<TMessage> {
  const { newPassword, ...rest } = input;
  return sendWithNewPassword(newPassword, (field) =>
    apiRequest<TMessage>('/api/complete-temporary-reset', {
      method: 'POST',
      body: { ...rest, ...field },
    }),
  );
}

/**
 * The dashboard dialog: the current password proves it is the owner. With enhanced encryption on
 * both passwords go as proofs, and the account key moves to the new password.
 */
export async function changePassword(input: {
  userId: number;
  username: string;
  currentPassword: string;
  newPassword: string;
}): Promise<TMessage> {
  const send = (body: object) =>
    apiRequest<TMessage>('/api/reset-password', { method: 'POST', body });
  const split = await splitPasswordChange(input);
  if (!split)
    return send({ currentPassword: input.currentPassword, newPassword: input.newPassword });
  return split.send(send);
}

/** First login: choose the password of an account someone else set up. */
export function setupPassword(password: string): Promise<TMessage> {
  return sendWithNewPassword(password, (field) =>
    apiRequest<TMessage>('/api/setup-password', {
      method: 'POST',
      body: 'newPassword' in field ? { password: field.newPassword } : field,
    }),
  );
}

export const PASSWORD_TEXT = {
  resetInstructionsSent: 'Reset Instructions Sent',
  resetSuccessful: 'Password Reset Successful',
  changeSucceeded: 'Password has been reset successfully.',
  changeFailed: 'Failed to reset password',
  setupFailed: 'Failed to set up password',
} as const;
