import type { TPreloginResponse } from '@shared/schemas/derived-password';
import { WRAP_LABEL_PARTS, type TEncryptionState } from '@shared/schemas/encryption';
import {
  isSealingError,
  newKdfParams,
  splitSecret,
  unwrapKey,
  wrapKey,
  wrapLabel,
  type TKdfParams,
} from '@shared/sealing';
import { apiRequest, isApiError } from '@web/lib/api-client';
import { fetchEncryptionState } from './encryption-state';

/**
 * A password is never sent for an account with enhanced encryption on: the browser splits it
 * (`splitSecret`) and sends the sign-in half, whether or not the installation still offers
 * encryption. The prelogin says which accounts keep their password plain (a name without an
 * account answers as a split one): those get it as typed, without a second of PBKDF2 first. An
 * account that answers a proof 401 PASSWORD_NEEDED gets the password then.
 */

/** What a request carries for a password: its proof, or (when asked for) the password. */
export type TPasswordField = { passwordProof: string } | { password: string };

/** What a request carries for a new password: its proof and settings, or the password. */
export type TNewPasswordField =
  { newPasswordProof: string; newPasswordKdf: TKdfParams } | { newPassword: string };

/** Whose password: a name as typed, or the account this device is tied to. */
type TPasswordOwner = string | { boundToThisDevice: true };

/** POST /api/auth/prelogin: the settings this account's password is split with, or would be. */
function prelogin(owner: TPasswordOwner): Promise<TPreloginResponse> {
  return apiRequest<TPreloginResponse>('/api/auth/prelogin', {
    method: 'POST',
    body: typeof owner === 'string' ? { username: owner.trim().toLowerCase() } : owner,
  });
}

/** The settings this account's password is split with. */
export async function fetchPasswordKdf(owner: TPasswordOwner): Promise<TKdfParams> {
  return (await prelogin(owner)).kdf;
}

/**
 * Sends a request that carries a password: as typed to an account that keeps it plain, else its
 * proof (PBKDF2: about a second), and the password after all only if the account asks for it.
 */
export async function sendWithPassword<T>(
  owner: TPasswordOwner,
  password: string,
  send: (field: TPasswordField) => Promise<T>,
): Promise<T> {
  const { kdf, passwordIsPlain } = await prelogin(owner);
  if (passwordIsPlain) return send({ password });
  const passwordProof = (await splitSecret('password', password, kdf)).signInHalf;
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

type TMessageSender<T> = (body: object) => Promise<T>;

/**
 * A password change for an account with enhanced encryption on, made ready in the browser: both
 * passwords split, and the account key (opened with the current password) wrapped under the new
 * one's key half, so the new password unlocks devices from then on. Null when it is off: both
 * passwords then go as typed, as always.
 */
export async function splitPasswordChange(input: {
  userId: number;
  username: string;
  currentPassword: string;
  newPassword: string;
}): Promise<{ send: <T>(send: TMessageSender<T>) => Promise<T> } | null> {
  let state: TEncryptionState;
  try {
    state = await fetchEncryptionState();
  } catch (error) {
    // Not the account's owner: there is no encryption of theirs to keep the password from.
    if (isApiError(error, 'FORBIDDEN')) return null;
    throw error;
  }
  if (state.state !== 'on') return null;
  const kdf = await fetchPasswordKdf(input.username);
  const newPasswordKdf = newKdfParams('password');
  const [current, next] = await Promise.all([
    splitSecret('password', input.currentPassword, kdf),
    splitSecret('password', input.newPassword, newPasswordKdf),
  ]);
  const label = wrapLabel(...WRAP_LABEL_PARTS.accountByPassword(input.userId));
  const byWrap =
    JSON.stringify(state.passwordKdf) === JSON.stringify(kdf)
      ? current
      : await splitSecret('password', input.currentPassword, state.passwordKdf);
  let newPasswordWrap: string | undefined;
  try {
    const accountKey = await unwrapKey(state.passwordWrap, byWrap.keyHalf, label, 'wrapping', {
      extractable: true,
    });
    newPasswordWrap = await wrapKey(accountKey, next.keyHalf, label);
  } catch (error) {
    // The wrap is of an earlier password (a reset): the recovery sheet still opens the key.
    if (!isSealingError(error)) throw error;
  }
  const newFields = {
    newPasswordProof: next.signInHalf,
    newPasswordKdf,
    ...(newPasswordWrap ? { newPasswordWrap } : {}),
  };
  return {
    async send(send) {
      try {
        return await send({ currentPasswordProof: current.signInHalf, ...newFields });
      } catch (error) {
        // A next of kin's reset of an earlier version kept it plain: it is asked for once.
        if (!isApiError(error, 'PASSWORD_NEEDED')) throw error;
        return send({ currentPassword: input.currentPassword, ...newFields });
      }
    },
  };
}
