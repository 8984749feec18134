import { EMERGENCY_CODE_LENGTH, isWellFormedCode } from '@shared/domain/codes';
import { WRAP_LABEL_PARTS } from '@shared/schemas/encryption';
import type { TEscrowOpened, TKeyRecoveryState } from '@shared/schemas/escrow';
import { isSealingError, unwrapKey, wrapLabel } from '@shared/sealing';
import { apiRequest } from '@web/lib/api-client';
import { splitCode } from './cards';
import { keepAccountKey } from './device-keys';
import { UnlockError } from './unlock';

/**
 * The next of kin's way back into a sealed account: their emergency code's proof asks the server
 * for the account key it keeps wrapped under the code's key half (handed over only once the
 * owner's legacy is released); the key half, which never leaves this device, opens it, and this
 * device keeps it as an unlock with the password would.
 */
export const ESCROW_TEXT = {
  codeShape: 'The emergency code has 16 letters and numbers, like ABCD-EFGH-JKLM-NP23.',
  emailNeeded: 'Please type your next of kin’s email address.',
  notThisAccount: 'This emergency card is for another account.',
  doesNotOpen:
    'This emergency card does not open these messages. Please check the code against the card.',
} as const;

type TCardGiven = { nextOfKinEmail: string; emergencyCode: string };

/** The card as typed, checked for shape, split: the proof to send and the key half to keep. */
async function splitCard(input: TCardGiven) {
  const email = input.nextOfKinEmail.trim().toLowerCase();
  if (!email) throw new UnlockError(ESCROW_TEXT.emailNeeded);
  if (!isWellFormedCode(input.emergencyCode, EMERGENCY_CODE_LENGTH)) {
    throw new UnlockError(ESCROW_TEXT.codeShape);
  }
  return { email, ...(await splitCode(email, input.emergencyCode)) };
}

export const KEY_RECOVERY_QUERY_KEY = ['/api/escrow/recovery'] as const;

/** POST /api/escrow/recovery: the owner's account asks for the card to open it after the wait. */
export async function startKeyRecovery(input: TCardGiven): Promise<TKeyRecoveryState> {
  const { email, signInHalf } = await splitCard(input);
  return apiRequest<TKeyRecoveryState>(KEY_RECOVERY_QUERY_KEY[0], {
    method: 'POST',
    body: { nextOfKinEmail: email, codeProof: signInHalf },
  });
}

/** POST /api/escrow/recovery/cancel: stopped from the owner's signed-in account. */
export function stopKeyRecovery(): Promise<TKeyRecoveryState> {
  return apiRequest<TKeyRecoveryState>('/api/escrow/recovery/cancel', { method: 'POST' });
}

/** POST /api/escrow/recovery/cancel-link: stopped with the link from the owner's email. */
export function stopKeyRecoveryByLink(token: string): Promise<{ ownerFirstName: string }> {
  return apiRequest('/api/escrow/recovery/cancel-link', { method: 'POST', body: { token } });
}

export async function unlockWithNextOfKinCard(
  input: TCardGiven & { userId: number },
): Promise<void> {
  const { email, signInHalf, keyHalf } = await splitCard(input);
  const opened = await apiRequest<TEscrowOpened>('/api/escrow/open', {
    method: 'POST',
    body: { nextOfKinEmail: email, codeProof: signInHalf },
  });
  if (opened.ownerId !== input.userId) throw new UnlockError(ESCROW_TEXT.notThisAccount);
  try {
    // Extractable only for the moment it takes to wrap it under this device's key.
    const accountKey = await unwrapKey(
      opened.escrowWrap,
      keyHalf,
      wrapLabel(...WRAP_LABEL_PARTS.accountByNextOfKin(input.userId, opened.keyId)),
      'wrapping',
      { extractable: true },
    );
    await keepAccountKey(input.userId, accountKey);
  } catch (error) {
    if (isSealingError(error, 'wrap')) throw new UnlockError(ESCROW_TEXT.doesNotOpen);
    throw error;
  }
}
