import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { EMERGENCY_CODE_LENGTH } from '../../src/shared/domain/codes';
import {
  codeKdfParams,
  generateContentKey,
  generateWrappingKey,
  newKdfParams,
  splitSecret,
  unwrapKey,
  wrapKey,
  wrapLabel,
} from '../../src/shared/sealing';
import { WRAP_LABEL_PARTS, type TSealedCard } from '../../src/shared/schemas/encryption';
import { generateCode } from '../../src/server/lib/codes';
import { GOOD_PASSWORD, type TestDevice } from './app';

// What a browser sends for enhanced encryption, made with the shared sealing code in Node's
// WebCrypto. A wrapping key stands in for the sheet's key half: the server cannot tell them
// apart, and stretching the recovery code too would only slow the tests.

/** The body of POST /api/encryption for this account, and the account key it wraps. */
export async function turnOnBody(userId: number, password = GOOD_PASSWORD) {
  const accountKey = await generateWrappingKey({ extractable: true });
  const bySheet = await generateWrappingKey({ extractable: false });
  const passwordKdf = newKdfParams('password');
  // Really stretched: the account signs in with the sign-in half, and the key half opens the wrap.
  const byPassword = await splitSecret('password', password, passwordKdf);
  const body = {
    password,
    passwordProof: byPassword.signInHalf,
    passwordWrap: await wrapKey(
      accountKey,
      byPassword.keyHalf,
      wrapLabel(...WRAP_LABEL_PARTS.accountByPassword(userId)),
    ),
    passwordKdf,
    recoveryWrap: await wrapKey(
      accountKey,
      bySheet,
      wrapLabel(...WRAP_LABEL_PARTS.accountByRecovery(userId)),
    ),
    recoveryKdf: newKdfParams('recovery'),
  };
  return { body, accountKey };
}

/**
 * A new password as the browser sends it for an account with enhanced encryption on: its
 * sign-in half and settings (`body`), and the proof that signs in with it afterwards.
 */
export async function newPasswordSplit(password: string) {
  const newPasswordKdf = newKdfParams('password');
  const newPasswordProof = (await splitSecret('password', password, newPasswordKdf)).signInHalf;
  return { body: { newPasswordProof, newPasswordKdf }, signInProof: newPasswordProof };
}

/** Turns enhanced encryption on for the owner signed in on `device`; answers the account key. */
export async function turnOn(device: TestDevice, userId: number): Promise<CryptoKey> {
  const { body, accountKey } = await turnOnBody(userId);
  const res = await device.post('/api/encryption', body);
  expect(res.statusCode).toBe(200);
  return accountKey;
}

/** A new content key for the message, wrapped under the account key as POST /api/uploads takes it. */
export async function contentKeyWrap(accountKey: CryptoKey, videoId: string): Promise<string> {
  return wrapKey(
    await generateContentKey(),
    accountKey,
    wrapLabel(...WRAP_LABEL_PARTS.contentForOwner(videoId)),
  );
}

/** What a browser sends in place of a code typed for this email: the code's sign-in half. */
export async function codeProof(email: string, code: string): Promise<string> {
  return (await splitSecret('code', code, await codeKdfParams(email))).signInHalf;
}

/**
 * A recipient's card as the owner's browser makes it: a new code (really stretched, so the
 * recipient's side can be checked with the code alone), its proof, and a new recipient key
 * wrapped under the account key and the code's key half.
 */
export async function makeSealedCard(accountKey: CryptoKey, email: string) {
  const code = generateCode(EMERGENCY_CODE_LENGTH);
  const halves = await splitSecret('code', code, await codeKdfParams(email));
  const recipientKey = await generateWrappingKey({ extractable: true });
  const keyId = randomUUID();
  const body: TSealedCard = {
    keyId,
    codeProof: halves.signInHalf,
    ownerWrap: await wrapKey(
      recipientKey,
      accountKey,
      wrapLabel(...WRAP_LABEL_PARTS.recipientByOwner(keyId)),
    ),
    codeWrap: await wrapKey(
      recipientKey,
      halves.keyHalf,
      wrapLabel(...WRAP_LABEL_PARTS.recipientByCode(keyId)),
    ),
  };
  return { code, proof: halves.signInHalf, keyId, recipientKey, body };
}

/** The recipient's side: the key a card's code wrap holds, opened with nothing but the code. */
export async function openCodeWrap(
  email: string,
  code: string,
  card: { keyId: string; codeWrap: string },
  options: { extractable?: boolean } = {},
): Promise<CryptoKey> {
  const { keyHalf } = await splitSecret('code', code, await codeKdfParams(email));
  return unwrapKey(
    card.codeWrap,
    keyHalf,
    wrapLabel(...WRAP_LABEL_PARTS.recipientByCode(card.keyId)),
    'wrapping',
    options,
  );
}

/** A new content key for the message, wrapped for its owner and for the recipient's card. */
export async function sealedKeys(
  accountKey: CryptoKey,
  card: { keyId: string; recipientKey: CryptoKey },
  videoId: string,
) {
  const contentKey = await generateContentKey();
  return {
    contentKey,
    keyWrap: await wrapKey(
      contentKey,
      accountKey,
      wrapLabel(...WRAP_LABEL_PARTS.contentForOwner(videoId)),
    ),
    recipientKeyWrap: await recipientWrap(contentKey, card, videoId),
  };
}

/** A content key wrapped for the recipient's card, as PUT sealed-messages takes it. */
export function recipientWrap(
  contentKey: CryptoKey,
  card: { keyId: string; recipientKey: CryptoKey },
  videoId: string,
): Promise<string> {
  return wrapKey(
    contentKey,
    card.recipientKey,
    wrapLabel(...WRAP_LABEL_PARTS.contentForRecipient(videoId, card.keyId)),
  );
}
