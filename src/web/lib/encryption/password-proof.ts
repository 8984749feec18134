import type { TPreloginResponse } from '@shared/schemas/derived-password';
import { newKdfParams, splitSecret, type TKdfParams } from '@shared/sealing';
import { apiRequest, isApiError } from '@web/lib/api-client';

/**
 * A password is never sent for an account with enhanced encryption on: the browser splits it
 * (`splitSecret`) and sends the sign-in half. The browser cannot tell beforehand which accounts
 * those are (the prelogin answers every name alike), so it sends the proof first; an account that
 * keeps its password plain answers 401 PASSWORD_NEEDED, and only then is the password sent.
 */

/** What a request carries for a password: its proof, or (when asked for) the password. */
export type TPasswordField = { passwordProof: string } | { password: string };

/** What a request carries for a new password: its proof and settings, or the password. */
export type TNewPasswordField =
  { newPasswordProof: string; newPasswordKdf: TKdfParams } | { newPassword: string };

/** POST /api/auth/prelogin: the settings this name's password is split with. */
export async function fetchPasswordKdf(username: string): Promise<TKdfParams> {
  const { kdf } = await apiRequest<TPreloginResponse>('/api/auth/prelogin', {
    method: 'POST',
    body: { username: username.trim().toLowerCase() },
  });
  return kdf;
}

/** The password's sign-in half for this name (PBKDF2: about a second). */
export async function provePassword(username: string, password: string): Promise<string> {
  const kdf = await fetchPasswordKdf(username);
  return (await splitSecret('password', password, kdf)).signInHalf;
}

/**
 * Sends a request that carries a password: first its proof, then the password only when the
 * account keeps its password plain and says so.
 */
export async function sendWithPassword<T>(
  username: string,
  password: string,
  send: (field: TPasswordField) => Promise<T>,
): Promise<T> {
  const passwordProof = await provePassword(username, password);
  try {
    return await send({ passwordProof });
  } catch (error) {
    if (isApiError(error, 'PASSWORD_NEEDED')) return send({ password });
    throw error;
  }
}

/**
 * Sends a request that sets a new password: split with fresh settings first; an account without
 * enhanced encryption answers 401 PASSWORD_NEEDED and gets the password as typed.
 */
export async function sendWithNewPassword<T>(
  newPassword: string,
  send: (field: TNewPasswordField) => Promise<T>,
): Promise<T> {
  const newPasswordKdf = newKdfParams('password');
  const { signInHalf } = await splitSecret('password', newPassword, newPasswordKdf);
  try {
    return await send({ newPasswordProof: signInHalf, newPasswordKdf });
  } catch (error) {
    if (isApiError(error, 'PASSWORD_NEEDED')) return send({ newPassword });
    throw error;
  }
}
