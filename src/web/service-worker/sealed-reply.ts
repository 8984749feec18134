import { openRange, readHeader, type TSealedHeader, type TSealedReader } from '@shared/sealing';
import type { TSealedPlayback } from './sealed-messages';
import { fetchWindows, planReply, type TPlaintextRange } from './sealed-range';

/** Headers already read, per message: 40 bytes each, read again by a restarted worker. */
const headers = new Map<string, Promise<TSealedHeader>>();

/** The header of a registered message, checked against its id and the stored object's size. */
function headerOf(playback: TSealedPlayback, read: TSealedReader): Promise<TSealedHeader> {
  let header = headers.get(playback.videoId);
  if (!header) {
    header = readHeader(read, { messageId: playback.videoId, objectSize: playback.objectSize });
    headers.set(playback.videoId, header);
    // A failed read is tried again by the next request, never remembered.
    header.catch(() => headers.delete(playback.videoId));
  }
  return header;
}

export function forgetHeaders(): void {
  headers.clear();
}

/**
 * The opened bytes of `range`, a window of segments at a time: each window is fetched only when
 * the player has read the one before, and opened a segment at a time, so memory holds a segment
 * or two whatever the message's size. A segment that fails its check errors the stream before
 * any of its bytes is given out.
 */
export function openWindows(
  key: CryptoKey,
  header: TSealedHeader,
  read: TSealedReader,
  range: TPlaintextRange | null,
): ReadableStream<Uint8Array> {
  const windows = range ? fetchWindows(range) : [];
  let next = 0;
  let current: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        for (;;) {
          if (!current) {
            const window = windows[next++];
            if (!window) return controller.close();
            current = openRange(key, header, read, window).getReader();
          }
          const { done, value } = await current.read();
          if (!done) return controller.enqueue(value);
          current = undefined;
        }
      },
      cancel: (reason) => current?.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

/**
 * The answer to the player's request for a registered sealed message: 206 with the opened bytes it
 * asked for, 200 with all of them when it named no range, 416 outside the message. A header that
 * is not this message's, or an object of another size, is a network error: the player says it
 * cannot play, and nothing is played.
 */
export async function answerSealed(
  request: Request,
  playback: TSealedPlayback,
  read: TSealedReader,
): Promise<Response> {
  let header: TSealedHeader;
  try {
    header = await headerOf(playback, read);
  } catch (error) {
    console.warn('This sealed message could not be opened', error);
    return Response.error();
  }
  const plan = planReply(request.headers.get('range'), header.plaintextLength, playback.mimeType);
  if (plan.status === 416) return new Response(null, { status: 416, headers: plan.headers });
  const body = openWindows(playback.contentKey, header, read, plan.range);
  return new Response(body, { status: plan.status, headers: plan.headers });
}
