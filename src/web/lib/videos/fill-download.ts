import { NetworkError } from '@web/lib/api-client';
import {
  CopyFetchError,
  fetchBody,
  readAll,
  readInParts,
  RefusedPartError,
  type TOnPart,
} from './body-parts';
import { endWhenIdle, fetchInWriter, writeChunk as writeToLibrary } from './chunk-writer';
import type { TCopyFetched } from './chunk-writer-messages';
import { discardStaged, MAX_CHUNK_BYTES } from './local-store';
import { copyWrites } from './write-batches';

/**
 * A cloud copy's download for the new device's fill (fill-copy.ts), never left hanging when the
 * connection goes: read a part at a time, each part hashed and handed on (to be written to the
 * library) while the rest is on its way; read whole only to hash an old copy known by its whole
 * SHA-256. A plain copy is fetched and written by the chunk writer, a worker, where one runs.
 */

/** A copy the store did not hand over (an expired link, the server away): worth another try. */
export class CopyUnavailableError extends Error {}

/** What the fetch said went wrong, as the fill hears it. */
function asFillError(error: CopyFetchError): Error {
  return error.kind === 'unavailable'
    ? new CopyUnavailableError(error.message)
    : new NetworkError(error.cause ?? error);
}

/** Runs `work` with a signal that aborts when the browser goes offline. */
async function untilOffline<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const lose = () => controller.abort();
  window.addEventListener('offline', lose);
  try {
    return await work(controller.signal);
  } finally {
    window.removeEventListener('offline', lose);
  }
}

/**
 * Opens the copy and reads its body with `read` (fetchBody). A lost connection (the browser
 * going offline, or nothing arriving for a while) throws NetworkError; an answer other than the
 * copy, CopyUnavailableError; what the reader refused (a sealed segment that failed its check),
 * its own error.
 */
async function download<T>(url: string, read: Parameters<typeof fetchBody<T>>[2]): Promise<T> {
  try {
    return await untilOffline((signal) => fetchBody(url, signal, read));
  } catch (error) {
    if (error instanceof RefusedPartError) throw error.cause;
    if (error instanceof CopyFetchError) throw asFillError(error);
    throw error;
  }
}

/**
 * A plain copy fetched and written to the library by the chunk writer (chunk-writer.ts), over
 * whatever an earlier try left; null where no writer runs (the page then reads it itself).
 * `onDownloaded` as `fetchInWriter`'s. Throws as `download` does, or why the library would not
 * take a chunk.
 */
export async function fetchPlainToLibrary(
  videoId: string,
  url: string,
  onDownloaded: (partSha256s: string[]) => void,
): Promise<TCopyFetched | null> {
  await discardStaged(videoId);
  try {
    return await untilOffline((signal) =>
      fetchInWriter({ videoId, url, chunkBytes: MAX_CHUNK_BYTES }, signal, onDownloaded),
    );
  } catch (error) {
    if (error instanceof CopyFetchError) throw asFillError(error);
    throw error;
  }
}

/** A copy's bytes, whole. */
export function downloadCopy(url: string): Promise<Uint8Array<ArrayBuffer>> {
  return download(url, readAll);
}

/** A copy a part at a time (see `readInParts`): its size and its parts' SHA-256s. */
export function downloadCopyInParts(url: string, onPart: TOnPart) {
  return download(url, (body, _declared, onRead) => readInParts(body, onPart, onRead));
}

/**
 * Writes a copy's bytes to the library as they arrive, as the library's 4 MiB chunks, over
 * whatever an earlier try left (`writeChunk`, chunk-writer.ts). `write` takes pieces of any size
 * (copied) and waits while more than a few chunks wait to be written, so a download never runs
 * far ahead of the library; `finish` writes the last, shorter chunk and settles once every chunk
 * is written (or throws why one was not). `finish(false)` only lets the writes under way end (a
 * failed try).
 */
export function stageInLibrary(videoId: string) {
  const cleared = discardStaged(videoId);
  const writes = copyWrites();
  let chunkCount = 0;
  let byteSize = 0;
  let filling = new Uint8Array(MAX_CHUNK_BYTES);
  let filled = 0;
  const writeChunk = (bytes: Uint8Array<ArrayBuffer>) => {
    const index = chunkCount++;
    writes.add(cleared.then(() => writeToLibrary({ videoId, index, bytes })));
  };
  return {
    get chunkCount() {
      return chunkCount;
    },
    get byteSize() {
      return byteSize;
    },
    async write(bytes: Uint8Array) {
      for (let at = 0; at < bytes.length;) {
        const taken = Math.min(MAX_CHUNK_BYTES - filled, bytes.length - at);
        filling.set(bytes.subarray(at, at + taken), filled);
        filled += taken;
        at += taken;
        if (filled === MAX_CHUNK_BYTES) {
          writeChunk(filling);
          filling = new Uint8Array(MAX_CHUNK_BYTES);
          filled = 0;
        }
      }
      byteSize += bytes.length;
      await writes.roomForMore();
    },
    async finish(isComplete = true): Promise<void> {
      // The last chunk, shorter; an empty copy is one empty chunk, as the library keeps it.
      if (isComplete && (filled > 0 || chunkCount === 0)) writeChunk(filling.slice(0, filled));
      endWhenIdle();
      await cleared;
      await writes.all();
    },
  };
}
