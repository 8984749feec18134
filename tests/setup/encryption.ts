import { expect } from 'vitest';
import {
  generateContentKey,
  generateWrappingKey,
  newKdfParams,
  wrapKey,
  wrapLabel,
} from '../../src/shared/sealing';
import { WRAP_LABEL_PARTS } from '../../src/shared/schemas/encryption';
import { GOOD_PASSWORD, type TestDevice } from './app';

// What a browser sends for enhanced encryption, made with the shared sealing code in Node's
// WebCrypto. The wrapping keys stand in for the password's and the sheet's key halves: the
// server cannot tell them apart, and stretching the real secrets would only slow the tests.

/** The body of POST /api/encryption for this account, and the account key it wraps. */
export async function turnOnBody(userId: number, password = GOOD_PASSWORD) {
  const accountKey = await generateWrappingKey({ extractable: true });
  const byPassword = await generateWrappingKey({ extractable: false });
  const bySheet = await generateWrappingKey({ extractable: false });
  const body = {
    password,
    passwordWrap: await wrapKey(
      accountKey,
      byPassword,
      wrapLabel(...WRAP_LABEL_PARTS.accountByPassword(userId)),
    ),
    passwordKdf: newKdfParams('password'),
    recoveryWrap: await wrapKey(
      accountKey,
      bySheet,
      wrapLabel(...WRAP_LABEL_PARTS.accountByRecovery(userId)),
    ),
    recoveryKdf: newKdfParams('recovery'),
  };
  return { body, accountKey };
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
