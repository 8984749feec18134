import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { compositeChecksumInput } from '../../../shared/domain/composite-checksum';

/** The bookkeeping of one multipart upload, as the store needs it. */
export interface StoreUpload {
  id: string;
  objectKey: string;
  storeUploadId: string | null;
}

export interface StoredObject {
  sha256: string;
  byteSize: number;
}

/** How long a signed part URL or playback URL works. */
export const PART_URL_SECONDS = 900;
export const PLAYBACK_URL_SECONDS = 300;

/**
 * Where cloud copies of videos live: files under DATA_DIR by default, any
 * S3-compatible store when S3_* is set. Keys are random (never a title or a name); the bytes are
 * opaque, so sealed messages can come later without a new store.
 */
export interface VideoStore {
  readonly mode: 'file' | 's3';
  /** Starts a multipart upload; S3 answers with its own upload id. */
  createMultipart(objectKey: string, mimeType: string): Promise<{ storeUploadId: string | null }>;
  /**
   * A URL to PUT one part to, bound to its exact length (and in S3 mode its SHA-256, sent as the
   * headers answered). File mode answers the server's own part endpoint.
   */
  signPart(upload: StoreUpload, part: PartToSign): Promise<SignedPartUrl>;
  /**
   * Joins the parts and answers the object's SHA-256 and size as the store holds them. Throws
   * CopyMismatchError when what the store holds is not what the device sent.
   */
  completeMultipart(
    upload: StoreUpload,
    parts: readonly SentPart[],
    expected: UploadShape,
  ): Promise<StoredObject>;
  abortMultipart(upload: StoreUpload): Promise<void>;
  deleteObject(objectKey: string): Promise<void>;
  /** A presigned GET in S3 mode; null in file mode (the server streams it itself). */
  presignedPlaybackUrl(objectKey: string, mimeType: string): Promise<string | null>;
  /** Every object held, a page at a time, with when it was written (for the orphan sweep). */
  listObjects(): AsyncIterable<ListedObject[]>;
  /** Every unfinished upload held, a page at a time, with when it started. */
  listUnfinishedUploads(): AsyncIterable<ListedUpload[]>;
}

export interface ListedObject {
  key: string;
  /** Null when the store does not say: taken as just written, so a sweep leaves it. */
  writtenAt: Date | null;
}

export interface ListedUpload extends StoreUpload {
  /** Null when the store does not say: taken as just started, so a sweep leaves it. */
  startedAt: Date | null;
}

/** Only names the app itself makes are ever touched by a sweep (a shared bucket keeps the rest). */
export const isObjectKey = (name: string) => /^[0-9a-f]{32}$/.test(name);
const isUploadId = (name: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(name);
const LISTING_PAGE = 1000;

export interface PartToSign {
  partNumber: number;
  /** The part's exact length. */
  bytes: number;
  /** The device's SHA-256 of the part (hex); the S3 store needs it, file mode hashes itself. */
  sha256: string | null;
}

export interface SignedPartUrl {
  url: string;
  isSameOrigin: boolean;
  /** Headers the PUT must carry because they are signed into the URL. */
  headers: Record<string, string>;
}

/** A part as the device says it sent it: the ETag its PUT answered, and its SHA-256 (hex). */
export interface SentPart {
  partNumber: number;
  etag: string;
  sha256?: string | undefined;
}

/**
 * What the device declared when the upload started. A copy sealed while it is sent declares no
 * SHA-256 (none exists before its last part is sealed): it is checked part by part, and known by
 * the composite checksum of its parts.
 */
export interface UploadShape {
  byteSize: number;
  partSize: number;
  sha256: string | null;
}

/** SHA-256 over the parts' digests, in part order (S3's composite checksum); hex. */
export function compositeSha256(partSha256s: readonly string[]): string {
  return createHash('sha256').update(compositeChecksumInput(partSha256s)).digest('hex');
}

/** Every part is the part size but the last, which holds the rest. */
export function partBytes(shape: Omit<UploadShape, 'sha256'>, partNumber: number): number {
  const partCount = Math.max(1, Math.ceil(shape.byteSize / shape.partSize));
  if (partNumber < partCount) return shape.partSize;
  return shape.byteSize - shape.partSize * (partCount - 1);
}

export function newObjectKey(): string {
  return randomBytes(16).toString('hex');
}

export class PartSizeError extends Error {}
/** The store holds other bytes than the device sent. */
export class CopyMismatchError extends Error {}

/**
 * File mode. Each part is written to a temporary name of its own and renamed to
 * DATA_DIR/videos/uploads/<upload>/<n>.part only when exactly its bytes arrived, so a cut
 * connection leaves no part counted and two writers of one part never mix. Completion joins the
 * parts into the object in one pass that also hashes them.
 */
export class FileVideoStore implements VideoStore {
  readonly mode = 'file' as const;
  /** Uploads whose directory this process has already made. */
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

  private partPath(uploadId: string, partNumber: number): string {
    return path.join(this.uploadDir(uploadId), `${partNumber}.part`);
  }

  async createMultipart(): Promise<{ storeUploadId: null }> {
    return { storeUploadId: null };
  }

  async signPart(upload: StoreUpload, part: PartToSign): Promise<SignedPartUrl> {
    return {
      url: `/api/uploads/${upload.id}/parts/${part.partNumber}`,
      isSameOrigin: true,
      headers: {},
    };
  }

  /**
   * Writes one part from the request stream; answers its ETag. S3 makes it an MD5; here nothing
   * reads it back (completion hashes the whole), so it names the part and its size rather than
   * spend an MD5 pass, the slowest step of an upload.
   */
  async writePart(
    upload: StoreUpload,
    partNumber: number,
    body: Readable,
    expectedBytes: number,
  ): Promise<string> {
    if (!this.prepared.has(upload.id)) {
      await mkdir(this.uploadDir(upload.id), { recursive: true, mode: 0o700 });
      this.prepared.add(upload.id);
    }
    // A name of this writer's own: a second writer of the same part writes beside it, not into it.
    const temporary = path.join(
      this.uploadDir(upload.id),
      `${partNumber}.${randomBytes(8).toString('hex')}.tmp`,
    );
    let received = 0;
    // Counts on the way to disk and stops at the first byte past the part's length.
    const guard = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        received += chunk.length;
        if (received > expectedBytes) {
          callback(new PartSizeError('part too large'));
          return;
        }
        callback(null, chunk);
      },
    });
    try {
      await pipeline(body, guard, createWriteStream(temporary, { flags: 'wx', mode: 0o600 }));
      if (received !== expectedBytes) throw new PartSizeError('part size mismatch');
      await rename(temporary, this.partPath(upload.id, partNumber));
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return `"part-${partNumber}-${received}"`;
  }

  private forget(uploadId: string): void {
    this.prepared.delete(uploadId);
  }

  async hasPart(upload: StoreUpload, partNumber: number): Promise<boolean> {
    try {
      await stat(this.partPath(upload.id, partNumber));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Joins the parts in one pass that hashes them: the whole, or (a copy declared part by part)
   * each part, compared with the device's checksum of it before the object is kept.
   */
  async completeMultipart(
    upload: StoreUpload,
    parts: readonly SentPart[],
    expected: UploadShape,
  ): Promise<StoredObject> {
    const directory = this.uploadDir(upload.id);
    const joined = path.join(directory, `joined.${randomBytes(8).toString('hex')}`);
    const byParts = expected.sha256 === null;
    const hash = createHash('sha256');
    let byteSize = 0;
    const partPath = (partNumber: number) => this.partPath(upload.id, partNumber);
    // Each part file is read as it was when opened: a part renamed over it meanwhile is either
    // wholly in the object and the hash, or not at all.
    async function* inOrder() {
      for (const part of parts) {
        const partHash = byParts ? createHash('sha256') : hash;
        for await (const chunk of createReadStream(partPath(part.partNumber))) {
          partHash.update(chunk as Buffer);
          byteSize += (chunk as Buffer).length;
          yield chunk as Buffer;
        }
        if (byParts && partHash.digest('hex') !== part.sha256) {
          throw new CopyMismatchError(`part ${part.partNumber} differs`);
        }
      }
    }
    try {
      await pipeline(inOrder, createWriteStream(joined, { flags: 'wx', mode: 0o600 }));
      const target = this.objectPath(upload.objectKey);
      await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      await rename(joined, target);
    } catch (error) {
      await rm(joined, { force: true });
      throw error;
    }
    this.forget(upload.id);
    // Only the parts are left; nothing waits for them to go.
    void rm(directory, { recursive: true, force: true }).catch(() => undefined);
    const sha256 = byParts
      ? compositeSha256(parts.map((part) => part.sha256 ?? ''))
      : hash.digest('hex');
    return { sha256, byteSize };
  }

  async abortMultipart(upload: StoreUpload): Promise<void> {
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

  /** objects/<first two>/<key>: names that are not keys are left alone. */
  async *listObjects(): AsyncIterable<ListedObject[]> {
    let page: ListedObject[] = [];
    for (const folder of await namesIn(path.join(this.root, 'objects'))) {
      for (const key of await namesIn(path.join(this.root, 'objects', folder))) {
        if (!isObjectKey(key) || key.slice(0, 2) !== folder) continue;
        const written = await stat(this.objectPath(key)).catch(() => undefined);
        if (!written?.isFile()) continue;
        page.push({ key, writtenAt: written.mtime });
        if (page.length >= LISTING_PAGE) {
          yield page;
          page = [];
        }
      }
    }
    if (page.length > 0) yield page;
  }

  /** uploads/<upload id>/, as old as its latest part. */
  async *listUnfinishedUploads(): AsyncIterable<ListedUpload[]> {
    let page: ListedUpload[] = [];
    for (const id of await namesIn(path.join(this.root, 'uploads'))) {
      if (!isUploadId(id)) continue;
      const folder = await stat(this.uploadDir(id)).catch(() => undefined);
      if (!folder?.isDirectory()) continue;
      page.push({ id, objectKey: '', storeUploadId: null, startedAt: folder.mtime });
      if (page.length >= LISTING_PAGE) {
        yield page;
        page = [];
      }
    }
    if (page.length > 0) yield page;
  }
}

async function namesIn(directory: string): Promise<string[]> {
  try {
    return await readdir(directory);
  } catch (error) {
    // Nothing there yet, or a stray file where a folder would be: nothing of ours inside.
    if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return [];
    throw error;
  }
}
