/// <reference lib="webworker" />
import {
  FORGET_SEALED_MESSAGE,
  isSealedPlayback,
  SEALED_PATH_PREFIX,
  SEALED_PLAYBACK_MESSAGE,
  type TSealedReply,
} from './sealed-messages';
import { findPlayback, forgetPlaybacks, keepPlayback, updatePlaybackUrl } from './sealed-playbacks';
import { answerSealed, forgetHeaders } from './sealed-reply';
import { sealedReader } from './sealed-source';

/**
 * Sealed messages played through the worker: the page registers a message (its content key and
 * where its sealed bytes are), then its player asks for `/sealed/<videoId>` with Range as for any
 * video, and the worker answers from just the segments that range needs.
 */

/** The page's registration and forgetting, each answered on the port the page sent. */
export function onSealedMessage(event: ExtendableMessageEvent): void {
  const data = event.data as { type?: unknown; playback?: unknown } | null;
  const port = event.ports[0];
  const reply = (answer: TSealedReply) => port?.postMessage(answer);
  if (data?.type === SEALED_PLAYBACK_MESSAGE && isSealedPlayback(data.playback)) {
    event.waitUntil(
      keepPlayback(data.playback).then(
        () => reply({ isDone: true }),
        () => reply({ isDone: false }),
      ),
    );
  } else if (data?.type === FORGET_SEALED_MESSAGE) {
    forgetHeaders();
    event.waitUntil(
      forgetPlaybacks().then(
        () => reply({ isDone: true }),
        () => reply({ isDone: false }),
      ),
    );
  }
}

/** The video id a `/sealed/<videoId>` request names, or null for any other request. */
export function sealedVideoId(request: Request, origin: string): string | null {
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== origin) return null;
  if (!url.pathname.startsWith(SEALED_PATH_PREFIX)) return null;
  return decodeURIComponent(url.pathname.slice(SEALED_PATH_PREFIX.length));
}

/** Answers a `/sealed/<videoId>` request; one the page never registered is not found. */
export async function answerSealedRequest(
  request: Request,
  videoId: string,
  origin: string,
): Promise<Response> {
  const playback = await findPlayback(videoId).catch(() => undefined);
  if (!playback) return new Response(null, { status: 404 });
  const read = sealedReader(
    { fetch: (input, init) => fetch(input, init), origin, onRenewed: updatePlaybackUrl },
    playback,
  );
  return answerSealed(request, playback, read);
}
