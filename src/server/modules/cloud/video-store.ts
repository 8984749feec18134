import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  NoSuchUpload,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

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
  ): Promise<TStoredObject>;
  abortMultipart(upload: TStoreUpload): Promise<void>;
  deleteObject(objectKey: string): Promise<void>;
  /** A presigned GET in S3 mode; null in file mode (the server streams it itself). */
  presignedPlaybackUrl(objectKey: string, mimeType: string): Promise<string | null>;
}

export function newObjectKey(): string {
  return randomBytes(16).toString('hex');
}

async function hashStream(stream: Readable): Promise<TStoredObject> {
  const hash = createHash('sha256');
  let byteSize = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    byteSize += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), byteSize };
}

export class PartSizeError extends Error {}

/** File mode: parts under DATA_DIR/videos/uploads, finished objects under DATA_DIR/videos/objects. */
export class FileVideoStore implements VideoStore {
  readonly mode = 'file' as const;

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
    return path.join(this.uploadDir(uploadId), String(partNumber));
  }

  async createMultipart(): Promise<{ storeUploadId: null }> {
    return { storeUploadId: null };
  }

  async signPart(upload: TStoreUpload, partNumber: number) {
    return { url: `/api/uploads/${upload.id}/parts/${partNumber}`, isSameOrigin: true };
  }

  /**
   * Writes one part from the request stream: to a temporary file first, renamed into place only
   * when exactly the expected number of bytes arrived, so a cut connection never leaves a short
   * part behind. Answers the part's ETag (MD5, as S3 does).
   */
  async writePart(
    upload: TStoreUpload,
    partNumber: number,
    body: Readable,
    expectedBytes: number,
  ): Promise<string> {
    const directory = this.uploadDir(upload.id);
    await mkdir(directory, { recursive: true, mode: 0o700 });
    const target = this.partPath(upload.id, partNumber);
    const temporary = `${target}.${randomBytes(4).toString('hex')}.tmp`;
    const md5 = createHash('md5');
    let received = 0;
    body.on('data', (chunk: Buffer) => {
      received += chunk.length;
      md5.update(chunk);
      if (received > expectedBytes) body.destroy(new PartSizeError('part too large'));
    });
    try {
      await pipeline(body, createWriteStream(temporary, { mode: 0o600 }));
      if (received !== expectedBytes) throw new PartSizeError('part size mismatch');
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return `"${md5.digest('hex')}"`;
  }

  async completeMultipart(
    upload: TStoreUpload,
    parts: ReadonlyArray<{ partNumber: number }>,
  ): Promise<TStoredObject> {
    const target = this.objectPath(upload.objectKey);
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    const temporary = `${target}.${randomBytes(4).toString('hex')}.tmp`;
    const hash = createHash('sha256');
    let byteSize = 0;
    const out = createWriteStream(temporary, { mode: 0o600 });
    try {
      for (const part of parts) {
        for await (const chunk of createReadStream(this.partPath(upload.id, part.partNumber))) {
          hash.update(chunk as Buffer);
          byteSize += (chunk as Buffer).length;
          if (!out.write(chunk)) await once(out, 'drain');
        }
      }
      out.end();
      await finished(out);
      await rename(temporary, target);
    } catch (error) {
      out.destroy();
      await rm(temporary, { force: true });
      throw error;
    }
    await rm(this.uploadDir(upload.id), { recursive: true, force: true });
    return { sha256: hash.digest('hex'), byteSize };
  }

  /** Which parts are on disk with their full size: a missing one means the client must resend. */
  async hasPart(upload: TStoreUpload, partNumber: number, expectedBytes: number): Promise<boolean> {
    try {
      return (await stat(this.partPath(upload.id, partNumber))).size === expectedBytes;
    } catch {
      return false;
    }
  }

  async abortMultipart(upload: TStoreUpload): Promise<void> {
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

export interface TS3Settings {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

/**
 * S3 mode: the browser PUTs parts straight to the store with presigned URLs, so no video bytes
 * pass through the app servers while uploading. On completion the server reads the object back
 * once to check its SHA-256 against the device's copy (decision 022).
 */
export class S3VideoStore implements VideoStore {
  readonly mode = 's3' as const;
  private readonly client: S3Client;

  constructor(private readonly settings: TS3Settings) {
    this.client = new S3Client({
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: {
        accessKeyId: settings.accessKeyId,
        secretAccessKey: settings.secretAccessKey,
      },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async createMultipart(objectKey: string, mimeType: string) {
    const created = await this.client.send(
      new CreateMultipartUploadCommand({
        Bucket: this.settings.bucket,
        Key: objectKey,
        ContentType: mimeType,
      }),
    );
    if (!created.UploadId) throw new Error('the store gave no upload id');
    return { storeUploadId: created.UploadId };
  }

  async signPart(upload: TStoreUpload, partNumber: number) {
    const url = await getSignedUrl(
      this.client,
      new UploadPartCommand({
        Bucket: this.settings.bucket,
        Key: upload.objectKey,
        UploadId: upload.storeUploadId ?? undefined,
        PartNumber: partNumber,
      }),
      { expiresIn: PART_URL_SECONDS },
    );
    return { url, isSameOrigin: false };
  }

  async completeMultipart(
    upload: TStoreUpload,
    parts: ReadonlyArray<{ partNumber: number; etag: string }>,
  ): Promise<TStoredObject> {
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.settings.bucket,
        Key: upload.objectKey,
        UploadId: upload.storeUploadId ?? undefined,
        MultipartUpload: {
          Parts: parts.map((part) => ({ PartNumber: part.partNumber, ETag: part.etag })),
        },
      }),
    );
    const object = await this.client.send(
      new GetObjectCommand({ Bucket: this.settings.bucket, Key: upload.objectKey }),
    );
    return hashStream(object.Body as Readable);
  }

  async abortMultipart(upload: TStoreUpload): Promise<void> {
    if (!upload.storeUploadId) return;
    try {
      await this.client.send(
        new AbortMultipartUploadCommand({
          Bucket: this.settings.bucket,
          Key: upload.objectKey,
          UploadId: upload.storeUploadId,
        }),
      );
    } catch (error) {
      if (!(error instanceof NoSuchUpload)) throw error;
    }
  }

  async deleteObject(objectKey: string): Promise<void> {
    try {
      await this.client.send(
        new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: objectKey }),
      );
    } catch (error) {
      if (!(error instanceof NoSuchKey)) throw error;
    }
  }

  async presignedPlaybackUrl(objectKey: string, mimeType: string): Promise<string> {
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.settings.bucket,
        Key: objectKey,
        ResponseContentType: mimeType,
      }),
      { expiresIn: PLAYBACK_URL_SECONDS },
    );
  }

  destroy(): void {
    this.client.destroy();
  }
}
