/**
 * What the page and its chunk writer (chunk-writer.worker.ts) say to each other. Kept apart, with
 * no imports, so the worker's script carries none of the page's library code.
 */

/** What the page hands the writer. */
export interface TChunkWriteRequest {
  id: number;
  library: string;
  videoId: string;
  index: number;
  bytes: Uint8Array<ArrayBuffer>;
}

/** The writer's answer for one chunk: written (null) or why not. */
export interface TChunkWriteReply {
  id: number;
  error: string | null;
}

/** The writer's first message, once its script runs: no chunk is handed over before it. */
export const WRITER_READY_ID = 0;
