import type { Readable } from 'node:stream';
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
import { servedVideoType } from '../../../shared/domain/video-types';
import {
  hashStream,
  PART_URL_SECONDS,
  PLAYBACK_URL_SECONDS,
  type TStoreUpload,
  type TStoredObject,
  type VideoStore,
} from './video-store';

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
    // Stored as a video only (S3 cannot keep a nosniff header with an object); every GET the app
    // signs sets both again in any case.
    const served = servedVideoType(mimeType);
    const created = await this.client.send(
      new CreateMultipartUploadCommand({
        Bucket: this.settings.bucket,
        Key: objectKey,
        ContentType: served.contentType,
        ContentDisposition: served.disposition,
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
    const served = servedVideoType(mimeType);
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.settings.bucket,
        Key: objectKey,
        ResponseContentType: served.contentType,
        ResponseContentDisposition: served.disposition,
      }),
      { expiresIn: PLAYBACK_URL_SECONDS },
    );
  }

  destroy(): void {
    this.client.destroy();
  }
}
