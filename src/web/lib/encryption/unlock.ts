import { ENCRYPTION_MESSAGES, WRAP_LABEL_PARTS } from '@shared/schemas/encryption';
import type { TEncryptionState } from '@shared/schemas/encryption';
import {
  checkRecoveryCode,
  isSealingError,
  splitSecret,
  unwrapKey,
  wrapKey,
  wrapLabel,
  type TRecoveryCodeCheck,
  type TSecretKind,
} from '@shared/sealing';
import { apiRequest, isApiError } from '@web/lib/api-client';
import { getAccountKey, keepAccountKey } from './device-keys';
import { fetchPasswordKdf } from './password-proof';
import { fetchEncryptionState } from './encryption-state';

export const UNLOCK_MESSAGES = {
  wrongPassword: ENCRYPTION_MESSAGES.wrongPassword,
  wrongRecoveryCode:
    'That recovery code does not open your messages. Please check it against your recovery sheet.',
  notOn: 'Enhanced encryption is not on for this account.',
  unsafeSettings:
    'Your account’s key settings are not safe to use, so this device did not use them. Please contact support.',
  unlockFirst: 'Please unlock this device with your recovery sheet first.',
  codeLength:
    'A recovery code has 24 letters and numbers, in six groups of four. Please check it against your recovery sheet.',
} as const;

/** 'group 3', 'groups 2 and 5', 'groups 1, 2 and 4'. */
function nameGroups(groups: readonly number[]): string {
  if (groups.length === 1) return `group ${groups[0]}`;
  return `groups ${groups.slice(0, -1).join(', ')} and ${groups[groups.length - 1]}`;
}

/** What to tell a person whose typed recovery code did not pass its checks; null when it did. */
export function describeRecoveryCodeProblem(check: TRecoveryCodeCheck): string | null {
  if (check.isValid) return null;
  if (check.problem === 'length') return UNLOCK_MESSAGES.codeLength;
  const where = nameGroups(check.groups);
  const capitalised = where.charAt(0).toUpperCase() + where.slice(1);
  if (check.problem === 'character') {
    const has = check.groups.length === 1 ? 'has' : 'have';
    return `${capitalised} ${has} a character that is not on a recovery sheet. Please check it against your sheet.`;
  }
  return `Please look again at ${where}: it does not match your recovery sheet.`;
}

/** Unlocking failed for a reason the person can act on; the message says which. */
export class UnlockError extends Error {
  override readonly name = 'UnlockError';
}

type TOnState = Extract<TEncryptionState, { state: 'on' }>;

/**
 * Opens the account key with a secret and keeps it on this device. Pure of the network: the
 * state is the server's answer, so this runs the same in a test.
 */
export async function openAccountKey(
  state: TEncryptionState,
  userId: number,
  kind: Extract<TSecretKind, 'password' | 'recovery'>,
  secret: string,
): Promise<void> {
  if (state.state !== 'on') throw new UnlockError(UNLOCK_MESSAGES.notOn);
  const on: TOnState = state;
  const [wrap, kdf, label, wrong] =
    kind === 'password'
      ? [
          on.passwordWrap,
          on.passwordKdf,
          WRAP_LABEL_PARTS.accountByPassword(userId),
          'wrongPassword' as const,
        ]
      : [
          on.recoveryWrap,
          on.recoveryKdf,
          WRAP_LABEL_PARTS.accountByRecovery(userId),
          'wrongRecoveryCode' as const,
        ];
  try {
    const { keyHalf } = await splitSecret(kind, secret, kdf);
    // Extractable only for the moment it takes to wrap it under this device's key.
    const accountKey = await unwrapKey(wrap, keyHalf, wrapLabel(...label), 'wrapping', {
      extractable: true,
    });
    await keepAccountKey(userId, accountKey);
  } catch (error) {
    if (isSealingError(error, 'kdf')) throw new UnlockError(UNLOCK_MESSAGES.unsafeSettings);
    if (isSealingError(error, 'wrap')) {
      // After a reset the wrap is still the earlier password's, which is not the one typed.
      const isOldWrap = kind === 'password' && !on.isPasswordWrapCurrent;
      throw new UnlockError(
        isOldWrap ? ENCRYPTION_MESSAGES.passwordWrapOld : UNLOCK_MESSAGES[wrong],
      );
    }
    throw error;
  }
}

/** 'Unlock sealed messages on this device' with the account's password. */
export async function unlockWithPassword(userId: number, password: string): Promise<void> {
  if (!password) throw new UnlockError('Please type your password.');
  await openAccountKey(await fetchEncryptionState(), userId, 'password', password);
}

/** The same with the printed recovery sheet; a mistyped group is named before the slow key work. */
export async function unlockWithRecoveryCode(userId: number, typed: string): Promise<void> {
  const check = checkRecoveryCode(typed);
  const problem = describeRecoveryCodeProblem(check);
  if (problem || !check.isValid) throw new UnlockError(problem ?? UNLOCK_MESSAGES.codeLength);
  await openAccountKey(await fetchEncryptionState(), userId, 'recovery', check.code);
}

/**
 * After a reset: this device, holding the account key, wraps it under the new password, so the
 * password opens sealed messages on other devices again. The server takes it with the password's
 * sign-in half as proof.
 */
export async function renewPasswordWrap(
  userId: number,
  username: string,
  password: string,
): Promise<void> {
  if (!password) throw new UnlockError('Please type your password.');
  const accountKey = await getAccountKey(userId, { extractable: true });
  if (!accountKey) throw new UnlockError(UNLOCK_MESSAGES.unlockFirst);
  const { signInHalf, keyHalf } = await splitSecret(
    'password',
    password,
    await fetchPasswordKdf(username),
  );
  const label = wrapLabel(...WRAP_LABEL_PARTS.accountByPassword(userId));
  try {
    await apiRequest('/api/encryption/password-wrap', {
      method: 'PUT',
      body: { passwordProof: signInHalf, passwordWrap: await wrapKey(accountKey, keyHalf, label) },
    });
  } catch (error) {
    if (isApiError(error)) throw new UnlockError(error.message);
    throw error;
  }
}
