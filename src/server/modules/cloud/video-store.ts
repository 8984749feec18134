import { createHash, randomBytes, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat, truncate, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** The bookkeeping of one multipart upload, as the store needs it. */
export interface TStoreUpload {
  id: string;
  objectKey: string;
  storeUploadId: string | null;
}

export interface TStoredObject {
  sha256: string;
  byteSize: number;
}

/** How long a signed part URL or playback URL works. */
export const PART_URL_SECONDS = 3600;
export const PLAYBACK_URL_SECONDS = 300;

/**
 * Where cloud copies of videos live (issue 13, DESIGN.md §3): files under DATA_DIR by default, any
 * S3-compatible store when S3_* is set. Keys are random (never a title or a name); the bytes are
 * opaque, so sealed messages can come later without a new store.
 */
export interface VideoStore {
  readonly mode: 'file' | 's3';
  /** Starts a multipart upload; S3 answers with its own upload id. */
  createMultipart(objectKey: string, mimeType: string): Promise<{ storeUploadId: string | null }>;
  /** URLs to PUT parts to. File mode answers the server's own part endpoint. */
  signPart(
    upload: TStoreUpload,
    partNumber: number,
  ): Promise<{ url: string; isSameOrigin: boolean }>;
  /** Joins the parts and answers the stored object's SHA-256 and size, read back from the store. */
  completeMultipart(
    upload: TStoreUpload,
    parts: ReadonlyArray<{ partNumber: number; etag: string }>,
    byteSize?: number,
  ): Promise<TStoredObject>;
  abortMultipart(upload: TStoreUpload): Promise<void>;
  deleteObject(objectKey: string): Promise<void>;
  /** A presigned GET in S3 mode; null in file mode (the server streams it itself). */
  presignedPlaybackUrl(objectKey: string, mimeType: string): Promise<string | null>;
}

export function newObjectKey(): string {
  return randomBytes(16).toString('hex');
}

export async function hashStream(stream: Readable): Promise<TStoredObject> {
  const hash = createHash('sha256');
  let byteSize = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    byteSize += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), byteSize };
}

export class PartSizeError extends Error {}

/** The running SHA-256 of an upload whose parts arrived in order, so completion need not re-read. */
interface TRunningHash {
  hash: Hash;
  nextPart: number;
  /** Bytes hashed so far. */
  bytes: number;
}

/**
 * File mode. Each part is written straight into its place in one file
 * (DATA_DIR/videos/uploads/<upload>/data, at offset (n-1) × part size) and marked done only when
 * exactly its bytes arrived, so a cut connection leaves no part counted. While parts arrive in
 * order the SHA-256 is kept as they stream, and completion is a rename; after a restart, or for
 * parts out of order, completion reads the file once to hash it.
 */
export class FileVideoStore implements VideoStore {
  readonly mode = 'file' as const;
  private readonly running = new Map<string, TRunningHash>();
  /** Uploads whose directory and data file this process has already made. */
  private readonly prepared = new Set<string>();

  constructor(private readonly root: string) {}

  objectPath(objectKey: string): string {
    if (!/^[0-9a-f]{32}$/.test(objectKey)) throw new Error('bad object key');
    return path.join(this.root, 'objects', objectKey.slice(0, 2), objectKey);
  }

  private uploadDir(uploadId: string): string {
    if (!/^[0-9a-f-]{36}$/.test(uploadId)) throw new Error('bad upload id');
    return path.join(this.root, 'uploads', uploadId);
  }

  private dataPath(uploadId: string): string {
    return path.join(this.uploadDir(uploadId), 'data');
  }

  private doneMarker(uploadId: string, partNumber: number): string {
    return path.join(this.uploadDir(uploadId), `${partNumber}.done`);
  }

  async createMultipart(): Promise<{ storeUploadId: null }> {
    return { storeUploadId: null };
  }

  async signPart(upload: TStoreUpload, partNumber: number) {
    return { url: `/api/uploads/${upload.id}/parts/${partNumber}`, isSameOrigin: true };
  }

  /**
   * Writes one part from the request stream at its offset; answers its ETag. S3 makes it an MD5;
   * here nothing reads it back (the whole file's SHA-256 is what completion checks), so it names
   * the part and its size rather than spend an MD5 pass, the slowest step of an upload.
   */
  async writePart(
    upload: TStoreUpload,
    partNumber: number,
    body: Readable,
    expected: { bytes: number; offset: number },
  ): Promise<string> {
    const data = this.dataPath(upload.id);
    if (!this.prepared.has(upload.id)) {
      await mkdir(this.uploadDir(upload.id), { recursive: true, mode: 0o700 });
      // Create the file once without truncating what other parts already wrote.
      await (await open(data, 'a', 0o600)).close();
      this.prepared.add(upload.id);
    }
    await rm(this.doneMarker(upload.id, partNumber), { force: true });

    const current = this.running.get(upload.id);
    const running = current ?? {
      hash: createHash('sha256'),
      nextPart: 1,
      bytes: 0,
    };
    // A part already hashed sent again may differ: completion then reads the file back.
    if (partNumber < running.nextPart) this.running.delete(upload.id);
    const candidate = running.nextPart === partNumber ? running.hash.copy() : undefined;
    let received = 0;
    // Counts and hashes on the way to disk, and stops before a byte lands past the part's end
    // (where the next part lives).
    const guard = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        received += chunk.length;
        if (received > expected.bytes) {
          callback(new PartSizeError('part too large'));
          return;
        }
        candidate?.update(chunk);
        callback(null, chunk);
      },
    });
    await pipeline(body, guard, createWriteStream(data, { flags: 'r+', start: expected.offset }));
    if (received !== expected.bytes) throw new PartSizeError('part size mismatch');
    await writeFile(this.doneMarker(upload.id, partNumber), '', { mode: 0o600 });
    // Kept only if no other write changed the running hash meanwhile.
    if (candidate && this.running.get(upload.id) === current) {
      this.running.set(upload.id, {
        hash: candidate,
        nextPart: partNumber + 1,
        bytes: running.bytes + received,
      });
    }
    return `"part-${partNumber}-${received}"`;
  }

  private forget(uploadId: string): void {
    this.running.delete(uploadId);
    this.prepared.delete(uploadId);
  }

  async hasPart(upload: TStoreUpload, partNumber: number): Promise<boolean> {
    try {
      await stat(this.doneMarker(upload.id, partNumber));
      return true;
    } catch {
      return false;
    }
  }

  async completeMultipart(
    upload: TStoreUpload,
    parts: ReadonlyArray<{ partNumber: number }>,
    byteSize?: number,
  ): Promise<TStoredObject> {
    const data = this.dataPath(upload.id);
    const running = this.running.get(upload.id);
    this.forget(upload.id);
    let stored: TStoredObject;
    if (running && running.nextPart === parts.length + 1) {
      // Every part streamed through this process in order, each exactly its size (a part is
      // marked done only then): the running hash and the sum of the sizes are the file's.
      stored = { sha256: running.hash.digest('hex'), byteSize: running.bytes };
    } else {
      // Read back: a part cut off past its end may have written beyond the last byte.
      if (byteSize !== undefined) await truncate(data, byteSize);
      stored = await hashStream(createReadStream(data));
    }
    const target = this.objectPath(upload.objectKey);
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    await rename(data, target);
    // Only the parts' markers are left; nothing waits for them to go.
    void rm(this.uploadDir(upload.id), { recursive: true, force: true }).catch(() => undefined);
    return stored;
  }

  async abortMultipart(upload: TStoreUpload): Promise<void> {
    this.forget(upload.id);
    await rm(this.uploadDir(upload.id), { recursive: true, force: true });
  }

  async deleteObject(objectKey: string): Promise<void> {
    await unlink(this.objectPath(objectKey)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }

  async presignedPlaybackUrl(): Promise<null> {
    return null;
  }
}
