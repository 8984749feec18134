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

/**
 * A sealed cloud copy opened in this browser: the content key unwrapped with the account key kept
 * on this device, the object fetched (cookies only from our own address, never sent to a store)
 * and opened segment by segment. Every segment is checked before any of it is used, so a changed
 * or cut copy is refused whole and never plays as garbage. A network failure is thrown.
 */
export async function openSealedCopy(input: {
  userId: number | null;
  videoId: string;
  url: string;
  keyWrap: string | null;
  mimeType: string;
}): Promise<TOpenedCopy> {
  const { userId, videoId, url, keyWrap, mimeType } = input;
  if (keyWrap === null) return { isOpened: false, message: SEALED_PLAYBACK_MESSAGES.ownerOnly };
  const accountKey = userId === null ? null : await getAccountKey(userId);
  if (!accountKey) return { isOpened: false, message: SEALED_PLAYBACK_MESSAGES.locked };
  let contentKey: CryptoKey;
  try {
    contentKey = await unwrapKey(
      keyWrap,
      accountKey,
      wrapLabel(...WRAP_LABEL_PARTS.contentForOwner(videoId)),
      'content',
    );
  } catch {
    return { isOpened: false, message: SEALED_PLAYBACK_MESSAGES.damaged };
  }
  const response = await fetch(url, { credentials: isSameOrigin(url) ? 'same-origin' : 'omit' });
  if (!response.ok || !response.body) throw new Error(`the copy answered ${response.status}`);
  try {
    return {
      isOpened: true,
      blob: await collect(openStream(contentKey, response.body, videoId), mimeType),
    };
  } catch (error) {
    if (isSealingError(error)) {
      return { isOpened: false, message: SEALED_PLAYBACK_MESSAGES.damaged };
    }
    throw error;
  }
}
