import type { TestDevice } from '../../setup/app';
import { WRAP_LABEL_PARTS, type TWaitingPhoneCopy } from '../../../src/shared/schemas/encryption';
import {
  generateContentKey,
  generateWrappingKey,
  unwrapKey,
  wrapKey,
  wrapLabel,
} from '../../../src/shared/sealing';

// What the owner's browser and a paired phone do with keys in sealed import from a phone, made
// with the shared sealing code in Node's WebCrypto.

export const label = (parts: readonly string[]) => wrapLabel(...parts);

export type TSent = { url: string; text: string };

/** Every request a test device makes, as text: its address, headers and body. */
export function recordRequests(device: TestDevice): TSent[] {
  const sent: TSent[] = [];
  const original = device.request.bind(device);
  device.request = (options) => {
    const payload = options.payload;
    const body = Buffer.isBuffer(payload) ? '' : JSON.stringify(payload ?? null);
    sent.push({ url: options.url, text: `${JSON.stringify(options.headers ?? {})} ${body}` });
    return original(options);
  };
  return sent;
}

/** What the owner's unlocked device does with a waiting copy: the new wraps, from the old. */
export async function rewrap(owner: { accountKey: CryptoKey }, copy: TWaitingPhoneCopy) {
  const pairingKey = await unwrapKey(
    copy.pairingKey.ownerWrap,
    owner.accountKey,
    label(WRAP_LABEL_PARTS.pairingByOwner(copy.pairingKey.keyId)),
    'wrapping',
  );
  const contentKey = await unwrapKey(
    copy.pairingKeyWrap,
    pairingKey,
    label(WRAP_LABEL_PARTS.contentForPairing(copy.videoId, copy.pairingKey.keyId)),
    'content',
    { extractable: true },
  );
  const keyWrap = await wrapKey(
    contentKey,
    owner.accountKey,
    label(WRAP_LABEL_PARTS.contentForOwner(copy.videoId)),
  );
  if (!copy.recipientKey) return { keyWrap };
  const recipientKey = await unwrapKey(
    copy.recipientKey.ownerWrap,
    owner.accountKey,
    label(WRAP_LABEL_PARTS.recipientByOwner(copy.recipientKey.keyId)),
    'wrapping',
  );
  const recipientKeyWrap = await wrapKey(
    contentKey,
    recipientKey,
    label(WRAP_LABEL_PARTS.contentForRecipient(copy.videoId, copy.recipientKey.keyId)),
  );
  return { keyWrap, recipientKey: { keyId: copy.recipientKey.keyId, keyWrap: recipientKeyWrap } };
}

/** A wrap as a browser makes one, of a key nobody here needs. */
export async function someWrap(): Promise<string> {
  const key = await generateWrappingKey({ extractable: false });
  return wrapKey(await generateContentKey(), key, label(['test']));
}

/** Whether any 64-byte run of the recording appears in the stored bytes. */
export function holdsRecordingBytes(stored: Buffer, recording: Buffer): boolean {
  for (let at = 0; at + 64 <= recording.length; at += 4096) {
    if (stored.includes(recording.subarray(at, at + 64))) return true;
  }
  return false;
}
