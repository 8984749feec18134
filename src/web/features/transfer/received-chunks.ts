import Dexie, { type Table } from 'dexie';
import { TRANSFER_CHUNK_BYTES } from './transfer-frames';

/**
 * Chunks of a message still arriving, kept apart from the library until the whole message is
 * here and its SHA-256 matches, so an interrupted move resumes from the last chunk and the
 * library never holds half a message.
 *
 * A row holds the chunks that arrived together (a piece's worth), in one Blob: one file for the
 * browser to write instead of sixteen. `index` is its first chunk's number; `indexes` lists them
 * all (a row without it, from an earlier version, holds only chunk `index`). Every chunk is
 * `TRANSFER_CHUNK_BYTES` long but a message's last, which comes last in its row.
 */
interface TReceivedChunk {
  videoId: string;
  index: number;
  indexes?: number[];
  data: Blob;
}

class ReceivedChunksDb extends Dexie {
  chunks!: Table<TReceivedChunk, [string, number]>;
  constructor() {
    super('memento-transfer');
    this.version(1).stores({ chunks: '[videoId+index], videoId' });
  }
}

const db = new ReceivedChunksDb();

/** Keeps chunks of one message that arrived together, in ascending order, in one write. */
export async function keepChunks(videoId: string, chunks: readonly TArrived[]): Promise<void> {
  if (chunks.length === 0) return;
  await db.chunks.put({
    videoId,
    index: chunks[0]!.index,
    indexes: chunks.map((chunk) => chunk.index),
    data: new Blob(chunks.map((chunk) => chunk.bytes)),
  });
}

export interface TArrived {
  index: number;
  bytes: Uint8Array<ArrayBuffer>;
}

function keptRows(videoId: string): Promise<TReceivedChunk[]> {
  return db.chunks.where('videoId').equals(videoId).toArray();
}

const numbersOf = (row: TReceivedChunk) => row.indexes ?? [row.index];

export async function listChunkIndexes(videoId: string): Promise<number[]> {
  return (await keptRows(videoId)).flatMap(numbersOf).sort((a, b) => a - b);
}

/**
 * The kept chunks of a message in order. A row of consecutive chunks is handed on whole; only a
 * row with a gap (chunks asked for again around ones already here) is cut into its chunks, since
 * every cut is a request to the browser and a message has a thousand chunks.
 */
export async function readChunks(videoId: string): Promise<Blob[]> {
  const runs = (await keptRows(videoId)).flatMap((row) => {
    const numbers = numbersOf(row);
    if (numbers.every((index, at) => index === numbers[0]! + at)) {
      return [{ index: numbers[0]!, data: row.data }];
    }
    return numbers.map((index, at) => ({
      index,
      data: row.data.slice(at * TRANSFER_CHUNK_BYTES, (at + 1) * TRANSFER_CHUNK_BYTES),
    }));
  });
  return runs.sort((a, b) => a.index - b.index).map((run) => run.data);
}

export function forgetChunks(videoId: string) {
  return db.chunks.where('videoId').equals(videoId).delete();
}

/** The chunk numbers of a message still to come, given those already here. */
export function missingChunks(chunkCount: number, have: readonly number[]): number[] {
  const here = new Set(have);
  return Array.from({ length: chunkCount }, (_, index) => index).filter((i) => !here.has(i));
}
