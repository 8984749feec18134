import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  NoSuchKey,
  NoSuchUpload,
  S3Client,
  UploadPartCommand,
  type Part,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { servedVideoType } from '../../../shared/domain/video-types';
import {
  compositeSha256,
  CopyMismatchError,
  isObjectKey,
  PART_URL_SECONDS,
  partBytes,
  PLAYBACK_URL_SECONDS,
  type ListedObject,
  type ListedUpload,
  type PartToSign,
  type SentPart,
  type SignedPartUrl,
  type StoreUpload,
  type StoredObject,
  type UploadShape,
  type VideoStore,
} from './video-store';

const CHECKSUM_HEADER = 'x-amz-checksum-sha256';
const toBase64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');
const bareEtag = (etag: string | undefined) => (etag ?? '').replaceAll('"', '');

export interface S3Settings {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

/**
 * S3 mode: the browser PUTs parts straight to the store with presigned URLs, so no video bytes
 * pass through the app servers. Completion checks the store's listing of the parts against the
 * device's lengths and checksums, and never reads the object back.
 */
export class S3VideoStore implements VideoStore {
  readonly mode = 's3' as const;
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
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
        // Each part then carries its SHA-256, which the store checks as it arrives.
        ChecksumAlgorithm: 'SHA256',
      }),
    );
    if (!created.UploadId) throw new Error('the store gave no upload id');
    return { storeUploadId: created.UploadId };
  }

  /**
   * The link binds the part's exact length and its SHA-256 (signed headers, not query values), so
   * the store refuses a longer body or other bytes.
   */
  async signPart(upload: StoreUpload, part: PartToSign): Promise<SignedPartUrl> {
    const checksum = part.sha256 ? toBase64(part.sha256) : undefined;
    const url = await getSignedUrl(
      this.client,
      new UploadPartCommand({
        Bucket: this.settings.bucket,
        Key: upload.objectKey,
        UploadId: upload.storeUploadId ?? undefined,
        PartNumber: part.partNumber,
        ContentLength: part.bytes,
        ChecksumSHA256: checksum,
      }),
      { expiresIn: PART_URL_SECONDS, unhoistableHeaders: new Set([CHECKSUM_HEADER]) },
    );
    return { url, isSameOrigin: false, headers: checksum ? { [CHECKSUM_HEADER]: checksum } : {} };
  }

  private async listParts(upload: StoreUpload): Promise<Part[]> {
    const parts: Part[] = [];
    let marker: string | undefined;
    for (;;) {
      const page = await this.client.send(
        new ListPartsCommand({
          Bucket: this.settings.bucket,
          Key: upload.objectKey,
          UploadId: upload.storeUploadId ?? undefined,
          PartNumberMarker: marker,
        }),
      );
      parts.push(...(page.Parts ?? []));
      if (!page.IsTruncated || !page.NextPartNumberMarker) return parts;
      marker = page.NextPartNumberMarker;
    }
  }

  /**
   * Checks the store's own listing, not the bytes: every part is there with its declared length,
   * the ETag the device was answered and the SHA-256 the device computed (which the store checked
   * when the part arrived). The whole object is then the device's bytes, so its SHA-256 is the
   * device's, and no byte is read back.
   */
  async completeMultipart(
    upload: StoreUpload,
    parts: readonly SentPart[],
    expected: UploadShape,
  ): Promise<StoredObject> {
    const listed = new Map((await this.listParts(upload)).map((part) => [part.PartNumber, part]));
    let byteSize = 0;
    for (const part of parts) {
      const held = listed.get(part.partNumber);
      const matches =
        held !== undefined &&
        held.Size === partBytes(expected, part.partNumber) &&
        bareEtag(held.ETag) === bareEtag(part.etag) &&
        part.sha256 !== undefined &&
        held.ChecksumSHA256 === toBase64(part.sha256);
      if (!matches) throw new CopyMismatchError(`part ${part.partNumber} differs`);
      byteSize += held.Size ?? 0;
    }
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.settings.bucket,
        Key: upload.objectKey,
        UploadId: upload.storeUploadId ?? undefined,
        MultipartUpload: {
          Parts: parts.map((part) => ({
            PartNumber: part.partNumber,
            ETag: part.etag,
            ChecksumSHA256: part.sha256 ? toBase64(part.sha256) : undefined,
          })),
        },
      }),
    );
    // A copy declared part by part is known by the composite of the checksums just checked.
    const sha256 = expected.sha256 ?? compositeSha256(parts.map((part) => part.sha256 ?? ''));
    return { sha256, byteSize };
  }

  async abortMultipart(upload: StoreUpload): Promise<void> {
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

  async *listObjects(): AsyncIterable<ListedObject[]> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.settings.bucket, ContinuationToken: token }),
      );
      yield (page.Contents ?? []).flatMap((object) =>
        object.Key && isObjectKey(object.Key)
          ? [{ key: object.Key, writtenAt: object.LastModified ?? null }]
          : [],
      );
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async *listUnfinishedUploads(): AsyncIterable<ListedUpload[]> {
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (;;) {
      const page = await this.client.send(
        new ListMultipartUploadsCommand({
          Bucket: this.settings.bucket,
          KeyMarker: keyMarker,
          UploadIdMarker: uploadIdMarker,
        }),
      );
      yield (page.Uploads ?? []).flatMap((upload) =>
        upload.Key && upload.UploadId && isObjectKey(upload.Key)
          ? [
              {
                id: '',
                objectKey: upload.Key,
                storeUploadId: upload.UploadId,
                startedAt: upload.Initiated ?? null,
              },
            ]
          : [],
      );
      if (!page.IsTruncated) return;
      keyMarker = page.NextKeyMarker;
      uploadIdMarker = page.NextUploadIdMarker;
    }
  }

  destroy(): void {
    this.client.destroy();
  }
}
