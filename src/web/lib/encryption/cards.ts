import { CODE_ALPHABET, EMERGENCY_CODE_LENGTH, formatCode } from '@shared/domain/codes';
import {
  WRAP_LABEL_PARTS,
  type TRecipientKeyForOwner,
  type TSealedCard,
} from '@shared/schemas/encryption';
import {
  codeKdfParams,
  generateWrappingKey,
  splitSecret,
  unwrapKey,
  wrapKey,
  wrapLabel,
  type TSecretHalves,
} from '@shared/sealing';

/**
 * A recipient's card, made in the owner's browser: a new access code (shown to the owner, never
 * sent), the recipient key, and two wraps of it, one the owner's account key opens and one the
 * code opens. The server gets only the code's sign-in half, so it can check the code at sign-in
 * but never open a recipient's messages.
 */

/** The largest multiple of the alphabet's length below 256: bytes above it would favour letters. */
const FAIR_LIMIT = 256 - (256 % CODE_ALPHABET.length);

/** A new access code: 16 characters from the code alphabet, each equally likely. */
export function makeCardCode(): string {
  let code = '';
  while (code.length < EMERGENCY_CODE_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(32))) {
      if (byte < FAIR_LIMIT && code.length < EMERGENCY_CODE_LENGTH) {
        code += CODE_ALPHABET[byte % CODE_ALPHABET.length];
      }
    }
  }
  return code;
}

/** The code's two halves for this email: the proof sent at sign-in and the key half kept here. */
export async function splitCode(email: string, code: string): Promise<TSecretHalves> {
  return splitSecret('code', code, await codeKdfParams(email));
}

const label = (parts: readonly string[]) => wrapLabel(...parts);

export interface TMadeCard {
  /** The code as shown and printed, e.g. 'K7QM-2XPA-93HT-WQ4N'. */
  code: string;
  card: TSealedCard;
}

/**
 * A new card for the recipient at this email, its key wrapped for the owner and for the code. A
 * next of kin's card also carries the account key (given extractable) under the code: the server
 * withholds it until the owner's legacy is released.
 */
export async function makeSealedCard(input: {
  email: string;
  accountKey: CryptoKey;
  escrow?: { ownerId: number; accountKey: CryptoKey };
}): Promise<TMadeCard> {
  const code = makeCardCode();
  const keyId = crypto.randomUUID();
  const { signInHalf, keyHalf } = await splitCode(input.email, code);
  const recipientKey = await generateWrappingKey({ extractable: true });
  const card: TSealedCard = {
    keyId,
    codeProof: signInHalf,
    ownerWrap: await wrapKey(
      recipientKey,
      input.accountKey,
      label(WRAP_LABEL_PARTS.recipientByOwner(keyId)),
    ),
    codeWrap: await wrapKey(recipientKey, keyHalf, label(WRAP_LABEL_PARTS.recipientByCode(keyId))),
    ...(input.escrow
      ? {
          escrowWrap: await wrapKey(
            input.escrow.accountKey,
            keyHalf,
            label(WRAP_LABEL_PARTS.accountByNextOfKin(input.escrow.ownerId, keyId)),
          ),
        }
      : {}),
  };
  return { code: formatCode(code), card };
}

/** The recipient key as the owner's device opens it: to wrap content keys for the recipient. */
export function openRecipientKeyAsOwner(
  sealedKey: TRecipientKeyForOwner,
  accountKey: CryptoKey,
): Promise<CryptoKey> {
  return unwrapKey(
    sealedKey.ownerWrap,
    accountKey,
    label(WRAP_LABEL_PARTS.recipientByOwner(sealedKey.keyId)),
    'wrapping',
  );
}

/**
 * The recipient key as the recipient's device opens it at sign-in, with the code's key half:
 * extractable only for the moment it takes to wrap it under this device's key.
 */
export function openRecipientKeyWithCode(
  codeWrap: string,
  keyId: string,
  keyHalf: CryptoKey,
): Promise<CryptoKey> {
  return unwrapKey(codeWrap, keyHalf, label(WRAP_LABEL_PARTS.recipientByCode(keyId)), 'wrapping', {
    extractable: true,
  });
}

/**
 * A message's content key, from its owner wrap, wrapped again for a recipient's card. The content
 * key is opened extractable only for the moment it takes to wrap it.
 */
export async function wrapContentForRecipient(input: {
  videoId: string;
  ownerKeyWrap: string;
  accountKey: CryptoKey;
  keyId: string;
  recipientKey: CryptoKey;
}): Promise<string> {
  const contentKey = await unwrapKey(
    input.ownerKeyWrap,
    input.accountKey,
    label(WRAP_LABEL_PARTS.contentForOwner(input.videoId)),
    'content',
    { extractable: true },
  );
  return wrapKey(
    contentKey,
    input.recipientKey,
    label(WRAP_LABEL_PARTS.contentForRecipient(input.videoId, input.keyId)),
  );
}
