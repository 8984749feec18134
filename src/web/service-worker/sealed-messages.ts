// What the page and the service worker say to each other about sealed messages: the page hands
// over what opens one message before its player asks for `/sealed/<videoId>`, and asks the worker
// to forget all of it at sign-out.

export const SEALED_PATH_PREFIX = '/sealed/';
export const SEALED_PLAYBACK_MESSAGE = 'memento:sealed-playback';
export const FORGET_SEALED_MESSAGE = 'memento:forget-sealed';

/** One message the worker may open, as the page registers it. */
export type TSealedPlayback = {
  videoId: string;
  /** The message's content key: it cannot be exported, and it can be cloned to the worker. */
  contentKey: CryptoKey;
  /** The playback URL of the sealed object (same origin in file mode, the store's in S3 mode). */
  url: string;
  /** Sealed bytes in the stored object. */
  objectSize: number;
  plaintextLength: number;
  mimeType: string;
  /** Sent as X-Device-ID when the worker asks for a fresh URL itself (it has no localStorage). */
  deviceId: string | null;
};

export type TSealedPlaybackMessage = {
  type: typeof SEALED_PLAYBACK_MESSAGE;
  playback: TSealedPlayback;
};
export type TForgetSealedMessage = { type: typeof FORGET_SEALED_MESSAGE };
/** The worker's answer, on the port the page sent with its message. */
export type TSealedReply = { isDone: boolean };

const isSize = (value: unknown): value is number =>
  Number.isSafeInteger(value) && Number(value) >= 0;

export function isSealedPlayback(value: unknown): value is TSealedPlayback {
  if (typeof value !== 'object' || value === null) return false;
  const playback = value as Record<string, unknown>;
  return (
    typeof playback.videoId === 'string' &&
    /^[0-9a-f-]{36}$/i.test(playback.videoId) &&
    playback.contentKey instanceof CryptoKey &&
    typeof playback.url === 'string' &&
    isSize(playback.objectSize) &&
    isSize(playback.plaintextLength) &&
    typeof playback.mimeType === 'string' &&
    (playback.deviceId === null || typeof playback.deviceId === 'string')
  );
}

export function sealedPathOf(videoId: string): string {
  return `${SEALED_PATH_PREFIX}${encodeURIComponent(videoId)}`;
}
