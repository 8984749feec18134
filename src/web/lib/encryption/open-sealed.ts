import { WRAP_LABEL_PARTS } from '@shared/schemas/encryption';
import { isSealingError, openStream, unwrapKey, wrapLabel } from '@shared/sealing';
import { getAccountKey, getRecipientKey } from './device-keys';

export const SEALED_PLAYBACK_MESSAGES = {
  damaged: 'This message could not be opened: it was changed or is incomplete.',
  ownerOnly: 'This message is sealed for its owner only for now.',
  locked:
    'This message is sealed. To watch it here, unlock sealed messages on this device on the Enhanced encryption page.',
  notForCardYet: 'This message is not ready for you yet: ask the sender for a new card.',
  recipientLocked:
    'This message is sealed. Please sign in again with your access code to open it here.',
} as const;

export type TOpenedCopy = { isOpened: true; blob: Blob } | { isOpened: false; message: string };

function isSameOrigin(url: string): boolean {
  return new URL(url, window.location.href).origin === window.location.origin;
}

/** Reads a stream of opened segments into one Blob; a failed check errors it, nothing is kept. */
async function collect(stream: ReadableStream<Uint8Array>, type: string): Promise<Blob> {
  const parts: BlobPart[] = [];
  // A reader rather than `for await`, which Safari's streams do not offer.
  const reader = stream.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    parts.push(read.value as Uint8Array<ArrayBuffer>);
  }
  return new Blob(parts, { type });
}

export type TSealedPlayback = {
  userId: number | null;
  videoId: string;
  url: string;
  keyWrap: string | null;
  mimeType: string;
  /** Whose key opens `keyWrap`: the owner's account key (unless said), or the recipient key `keyId`. */
  holder?: 'owner' | 'recipient';
  keyId?: string | null;
};

/** The key that opens the wrap and the wrap's label, or what to say when this device has none. */
async function findOpener(
  input: TSealedPlayback,
): Promise<{ key: CryptoKey; label: string } | { message: string }> {
  const { userId, videoId, keyWrap, holder, keyId } = input;
  if (holder === 'recipient') {
    if (keyWrap === null || !keyId) {
      return { message: SEALED_PLAYBACK_MESSAGES.notForCardYet };
    }
    const key = await getRecipientKey(keyId);
    if (!key) return { message: SEALED_PLAYBACK_MESSAGES.recipientLocked };
    return { key, label: wrapLabel(...WRAP_LABEL_PARTS.contentForRecipient(videoId, keyId)) };
  }
  if (keyWrap === null) return { message: SEALED_PLAYBACK_MESSAGES.ownerOnly };
  const key = userId === null ? null : await getAccountKey(userId);
  if (!key) return { message: SEALED_PLAYBACK_MESSAGES.locked };
  return { key, label: wrapLabel(...WRAP_LABEL_PARTS.contentForOwner(videoId)) };
}

export type TContentKey = { isOpened: true; key: CryptoKey } | { isOpened: false; message: string };

/**
 * The content key of a sealed playback (it cannot be exported), unwrapped with the account key
 * (for the owner) or the recipient key (for a recipient) kept on this device; or what to say when
 * this device holds neither. Both ways of playing a sealed copy take their key from here.
 */
export async function findContentKey(input: TSealedPlayback): Promise<TContentKey> {
  const { keyWrap } = input;
  const opener = await findOpener(input);
  if ('message' in opener || keyWrap === null) {
    return {
      isOpened: false,
      message: 'message' in opener ? opener.message : SEALED_PLAYBACK_MESSAGES.damaged,
    };
  }
  try {
    return { isOpened: true, key: await unwrapKey(keyWrap, opener.key, opener.label, 'content') };
  } catch {
    return { isOpened: false, message: SEALED_PLAYBACK_MESSAGES.damaged };
  }
}

/**
 * A sealed cloud copy opened whole in this browser with its content key (found here unless the
 * caller has it already): the object fetched (cookies only from our own address, never sent to a
 * store) and opened segment by segment. Every segment is checked before any of it is used, so a
 * changed or cut copy is refused whole and never plays as garbage. A network failure is thrown.
 */
export function openSealedCopy(
  input: Pick<TSealedPlayback, 'videoId' | 'url' | 'mimeType'>,
  contentKey: CryptoKey,
): Promise<TOpenedCopy>;
export function openSealedCopy(input: TSealedPlayback): Promise<TOpenedCopy>;
export async function openSealedCopy(
  input: Pick<TSealedPlayback, 'videoId' | 'url' | 'mimeType'>,
  contentKey?: CryptoKey,
): Promise<TOpenedCopy> {
  const { videoId, url, mimeType } = input;
  // Without a key, the second signature's whole playback was given.
  const found = contentKey
    ? { isOpened: true as const, key: contentKey }
    : await findContentKey(input as TSealedPlayback);
  if (!found.isOpened) return found;
  const response = await fetch(url, { credentials: isSameOrigin(url) ? 'same-origin' : 'omit' });
  if (!response.ok || !response.body) throw new Error(`the copy answered ${response.status}`);
  try {
    return {
      isOpened: true,
      blob: await collect(openStream(found.key, response.body, videoId), mimeType),
    };
  } catch (error) {
    if (isSealingError(error)) {
      return { isOpened: false, message: SEALED_PLAYBACK_MESSAGES.damaged };
    }
    throw error;
  }
}
