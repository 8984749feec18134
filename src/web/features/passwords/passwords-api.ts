import { apiRequest } from '@web/lib/api-client';

interface TMessage {
  message: string;
}

/** Forgot password: always the same neutral answer, whether or not the account exists. */
export function requestPasswordReset(email: string): Promise<TMessage> {
  return apiRequest('/api/temporary-password-reset', { method: 'POST', body: { email } });
}

export function completePasswordReset(input: {
  email: string;
  resetToken: string;
  newPassword: string;
}): Promise<TMessage> {
  return apiRequest('/api/complete-temporary-reset', { method: 'POST', body: input });
}

/** The dashboard dialog: the current password proves it is the owner. */
export function changePassword(input: {
  currentPassword: string;
  newPassword: string;
}): Promise<TMessage> {
  return apiRequest('/api/reset-password', { method: 'POST', body: input });
}

/** First login: choose the password of an account someone else set up. */
export function setupPassword(password: string): Promise<TMessage> {
  return apiRequest('/api/setup-password', { method: 'POST', body: { password } });
}

export const PASSWORD_TEXT = {
  resetInstructionsSent: 'Reset Instructions Sent',
  resetSuccessful: 'Password Reset Successful',
  changeSucceeded: 'Password has been reset successfully.',
  changeFailed: 'Failed to reset password',
  setupFailed: 'Failed to set up password',
} as const;
