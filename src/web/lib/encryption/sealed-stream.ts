import type { TPlayback } from '@shared/schemas/cloud';
import { plaintextLengthOf } from '@shared/sealing';
import { getDeviceId } from '@web/lib/device-id';
import {
  FORGET_SEALED_MESSAGE,
  sealedPathOf,
  SEALED_PLAYBACK_MESSAGE,
  type TForgetSealedMessage,
  type TSealedPlaybackMessage,
  type TSealedReply,
} from '@web/service-worker/sealed-messages';

/**
 * A worker that has not answered by then is an older version that knows nothing of sealed
 * messages (or none at all): the player then opens the message whole, as before.
 */
const REPLY_MS = 3_000;

/** Sends a message to a worker and waits for its answer on a port of its own. */
function ask(
  worker: ServiceWorker,
  message: TSealedPlaybackMessage | TForgetSealedMessage,
): Promise<boolean> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const finish = (isDone: boolean) => {
      window.clearTimeout(timer);
      channel.port1.close();
      resolve(isDone);
    };
    const timer = window.setTimeout(() => finish(false), REPLY_MS);
    channel.port1.onmessage = (event: MessageEvent<TSealedReply>) =>
      finish(event.data?.isDone === true);
    try {
      worker.postMessage(message, [channel.port2]);
    } catch {
      finish(false);
    }
  });
}

/**
 * Where the player streams a sealed message from when the service worker controls this page: the
 * worker opens just the segments each Range request needs, so memory stays bounded and a seek
 * fetches little. Null without a worker that took the message (the first visit, a
 * shift-reload, an older worker): the caller then opens the message whole.
 */
export async function playSealedThroughWorker(input: {
  videoId: string;
  contentKey: CryptoKey;
  playback: TPlayback;
}): Promise<string | null> {
  const worker = typeof navigator === 'undefined' ? null : navigator.serviceWorker?.controller;
  const plaintextLength = plaintextLengthOf(input.playback.byteSize);
  if (!worker || plaintextLength === undefined) return null;
  const isKept = await ask(worker, {
    type: SEALED_PLAYBACK_MESSAGE,
    playback: {
      videoId: input.videoId,
      contentKey: input.contentKey,
      url: new URL(input.playback.url, window.location.href).href,
      objectSize: input.playback.byteSize,
      plaintextLength,
      mimeType: input.playback.mimeType,
      deviceId: getDeviceId(),
    },
  });
  return isKept ? sealedPathOf(input.videoId) : null;
}

/** At sign-out: the worker forgets every message it could open, in memory and in its store. */
export async function forgetSealedPlayback(): Promise<void> {
  if (typeof navigator === 'undefined' || !navigator.serviceWorker) return;
  const registration = await navigator.serviceWorker.getRegistration().catch(() => undefined);
  const workers = new Set(
    [navigator.serviceWorker.controller, registration?.active].filter(
      (worker): worker is ServiceWorker => Boolean(worker),
    ),
  );
  await Promise.all([...workers].map((worker) => ask(worker, { type: FORGET_SEALED_MESSAGE })));
}
