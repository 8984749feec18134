/**
 * What the page and its chunk writer (chunk-writer.worker.ts) say to each other. Kept apart, with
 * no imports, so the worker's script carries none of the page's library code.
 */

/** A chunk the page hands the writer, to be written as it is. */
export interface TChunkWriteRequest {
  kind: 'chunk';
  id: number;
  library: string;
  videoId: string;
  index: number;
  bytes: Uint8Array<ArrayBuffer>;
}

/**
 * A plain copy for the writer to fetch itself and write, `chunkBytes` a chunk, each part hashed
 * as it arrives: the bytes never pass through the page.
 */
export interface TCopyFetchRequest {
  kind: 'fetch';
  id: number;
  library: string;
  videoId: string;
  url: string;
  chunkBytes: number;
}

/** The page gave up on a copy it asked for (the browser went offline): the writer stops it. */
export interface TCopyFetchAbort {
  kind: 'abort';
  id: number;
}

export type TChunkWriterRequest = TChunkWriteRequest | TCopyFetchRequest | TCopyFetchAbort;

/** A fetched copy, every chunk of it written: its size, chunks and parts' SHA-256s in order. */
export interface TCopyFetched {
  byteSize: number;
  chunkCount: number;
  partSha256s: string[];
}

/**
 * Why a request failed: the connection ('network', worth another try), an answer other than the
 * copy ('unavailable', with its status), or the library would not take a chunk ('write').
 */
export type TWriterFailure = 'network' | 'unavailable' | 'write';

/**
 * The writer's answer to a chunk or a copy: done (error null), or why not. A copy is first
 * answered with its parts' SHA-256s once all of it arrived (`downloaded`), its last chunks
 * still being written, so the page can start on the next copy meanwhile.
 */
export type TChunkWriteReply =
  | { id: number; error: null; fetched?: TCopyFetched }
  | { id: number; error: null; downloaded: string[] }
  | { id: number; error: string; failure: TWriterFailure };

/** The writer's first message, once its script runs: no request is handed over before it. */
export const WRITER_READY_ID = 0;
