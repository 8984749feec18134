import Dexie, { type Table } from 'dexie';

/**
 * Chunks of a message still arriving, kept apart from the library until the whole message is
 * here and its SHA-256 matches, so an interrupted move resumes from the last chunk and the
 * library never holds half a message.
 */
interface TReceivedChunk {
  videoId: string;
  index: number;
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

/** Keeps a few chunks of one message in one write. */
export function keepChunks(videoId: string, chunks: readonly { index: number; data: Blob }[]) {
  return db.chunks.bulkPut(chunks.map((chunk) => ({ videoId, ...chunk })));
}

export async function listChunkIndexes(videoId: string): Promise<number[]> {
  const rows = await db.chunks.where('videoId').equals(videoId).toArray();
  return rows.map((row) => row.index);
}

export async function readChunks(videoId: string): Promise<Blob[]> {
  const rows = await db.chunks.where('videoId').equals(videoId).toArray();
  return rows.sort((a, b) => a.index - b.index).map((row) => row.data);
}

export function forgetChunks(videoId: string) {
  return db.chunks.where('videoId').equals(videoId).delete();
}

/** The chunk numbers of a message still to come, given those already here. */
export function missingChunks(chunkCount: number, have: readonly number[]): number[] {
  const here = new Set(have);
  return Array.from({ length: chunkCount }, (_, index) => index).filter((i) => !here.has(i));
}
