import { WRAP_LABEL_PARTS } from '@shared/schemas/encryption';
import { isSealingError, openStream, unwrapKey, wrapLabel } from '@shared/sealing';
import { getAccountKey } from './device-keys';

export const SEALED_PLAYBACK_MESSAGES = {
  damaged: 'This message could not be opened: it was changed or is incomplete.',
  ownerOnly: 'This message is sealed for its owner only for now.',
  locked:
    'This message is sealed. To watch it here, unlock sealed messages on this device on the Enhanced encryption page.',
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
};

export type TContentKey = { isOpened: true; key: CryptoKey } | { isOpened: false; message: string };

/**
 * The content key of a sealed playback (it cannot be exported), unwrapped with the account key
 * kept on this device; or what to say when this device holds none. Both ways of playing a sealed
 * copy take their key from here.
 */
export async function findContentKey(input: TSealedPlayback): Promise<TContentKey> {
  const { userId, videoId, keyWrap } = input;
  if (keyWrap === null) return { isOpened: false, message: SEALED_PLAYBACK_MESSAGES.ownerOnly };
  const accountKey = userId === null ? null : await getAccountKey(userId);
  if (!accountKey) return { isOpened: false, message: SEALED_PLAYBACK_MESSAGES.locked };
  try {
    const label = wrapLabel(...WRAP_LABEL_PARTS.contentForOwner(videoId));
    return { isOpened: true, key: await unwrapKey(keyWrap, accountKey, label, 'content') };
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
