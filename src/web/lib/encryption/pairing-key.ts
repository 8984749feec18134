import { BlobReader } from '@shared/blob-reader';
import {
  WRAP_LABEL_PARTS,
  type TPairingKey,
  type TSealPhoneCopyBody,
  type TWaitingPhoneCopy,
} from '@shared/schemas/encryption';
import {
  generateContentKey,
  generateWrappingKey,
  sealedSize,
  startSealing,
  unwrapKey,
  wrapKey,
  wrapLabel,
} from '@shared/sealing';
import { fromBase64Url, toBase64Url } from '@shared/sealing/bytes';
import { apiRequest } from '@web/lib/api-client';
import { getAccountKey, hasAccountKey } from './device-keys';
import { recipientWrapForUpload } from './owner-cards';
import type { TSealedCopy } from './seal-upload';

/**
 * Import from a phone with enhanced encryption on. The owner's device makes a pairing key: the
 * server keeps it only wrapped under the account key; the phone gets it only in the link's
 * fragment, which no browser sends to a server. The phone seals each video under a content key of
 * its own, wrapped under the pairing key; the owner's unlocked device later wraps that content key
 * for the owner and the recipient's card, as for any sealed message.
 */

const PAIRING_KEY_BYTES = 32;

/** A new pairing key: its wrap for the server, its bytes (base64url) for the link's fragment only. */
export async function makePairingKey(
  accountKey: CryptoKey,
): Promise<{ pairingKey: TPairingKey; fragment: string }> {
  const key = await generateWrappingKey({ extractable: true });
  const keyId = crypto.randomUUID();
  const ownerWrap = await wrapKey(
    key,
    accountKey,
    wrapLabel(...WRAP_LABEL_PARTS.pairingByOwner(keyId)),
  );
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', key));
  return { pairingKey: { keyId, ownerWrap }, fragment: toBase64Url(raw) };
}

/** The phone's side: the pairing key from the fragment's text, usable only to wrap; null if bad. */
export async function importPairingKey(text: string): Promise<CryptoKey | null> {
  const raw = fromBase64Url(text);
  if (!raw || raw.length !== PAIRING_KEY_BYTES) return null;
  return crypto.subtle.importKey('raw', new Uint8Array(raw), { name: 'AES-GCM' }, false, [
    'wrapKey',
  ]);
}

/** The phone seals a video under a new content key, wrapped under the pairing key only. */
export async function sealForPairing(input: {
  videoId: string;
  recording: Blob;
  pairingKey: CryptoKey;
  keyId: string;
}): Promise<TSealedCopy> {
  const key = await generateContentKey();
  const sealing = startSealing({
    key,
    messageId: input.videoId,
    plaintextLength: input.recording.size,
  });
  const keyWrap = await wrapKey(
    key,
    input.pairingKey,
    wrapLabel(...WRAP_LABEL_PARTS.contentForPairing(input.videoId, input.keyId)),
  );
  return {
    sealing,
    recording: new BlobReader(input.recording),
    byteSize: sealedSize(input.recording.size),
    keyWrap,
  };
}

/** The owner's device: a waiting copy's content key, wrapped again for the owner and the card. */
async function rewrapCopy(
  copy: TWaitingPhoneCopy,
  accountKey: CryptoKey,
  pairingKeys: Map<string, Promise<CryptoKey>>,
): Promise<TSealPhoneCopyBody> {
  const { keyId, ownerWrap } = copy.pairingKey;
  let pairingKey = pairingKeys.get(keyId);
  if (!pairingKey) {
    pairingKey = unwrapKey(
      ownerWrap,
      accountKey,
      wrapLabel(...WRAP_LABEL_PARTS.pairingByOwner(keyId)),
      'wrapping',
    );
    pairingKeys.set(keyId, pairingKey);
  }
  const contentKey = await unwrapKey(
    copy.pairingKeyWrap,
    await pairingKey,
    wrapLabel(...WRAP_LABEL_PARTS.contentForPairing(copy.videoId, keyId)),
    'content',
    { extractable: true },
  );
  const keyWrap = await wrapKey(
    contentKey,
    accountKey,
    wrapLabel(...WRAP_LABEL_PARTS.contentForOwner(copy.videoId)),
  );
  const recipientKeyWrap = await recipientWrapForUpload({
    videoId: copy.videoId,
    ownerKeyWrap: keyWrap,
    accountKey,
    sealedKey: copy.recipientKey,
  });
  return recipientKeyWrap && copy.recipientKey
    ? { keyWrap, recipientKey: { keyId: copy.recipientKey.keyId, keyWrap: recipientKeyWrap } }
    : { keyWrap };
}

/**
 * On an unlocked device of the owner: every phone video waiting, wrapped again and handed back.
 * Answers how many were sealed; one that fails waits for the next run.
 */
export async function sealWaitingPhoneCopies(userId: number): Promise<number> {
  // A device that holds no account key (locked, or the account does not seal) asks nothing.
  if (!(await hasAccountKey(userId))) return 0;
  const accountKey = await getAccountKey(userId);
  if (!accountKey) return 0;
  const { copies } = await apiRequest<{ copies: TWaitingPhoneCopy[] }>('/api/phone-copies');
  const pairingKeys = new Map<string, Promise<CryptoKey>>();
  let sealed = 0;
  for (const copy of copies) {
    try {
      const body = await rewrapCopy(copy, accountKey, pairingKeys);
      await apiRequest(`/api/phone-copies/${copy.videoId}/seal`, { method: 'POST', body });
      sealed += 1;
    } catch {
      // Left waiting: another device may have sealed it, or a card changed meanwhile.
    }
  }
  return sealed;
}
