import { z } from 'zod';
import { isSingleLine, SINGLE_LINE_MESSAGE } from './common';
import { CLOUD_MESSAGES, MAX_SIGN_BATCH, UPLOAD_PART_BYTES } from './cloud-messages';
import { MAX_VIDEO_BYTES } from './videos';
import { ZSealedUpload } from './encryption';
import { sealedSize } from '../sealing/format';

/**
 * The cloud library's client protocol: resumable multipart upload in the S3 style — create, sign
 * parts, send parts, complete, abort — the same in file mode and S3 mode.
 * In S3 mode the signed part URLs point at the store; in file mode at the server's own part
 * endpoint. The client keeps each part's ETag, so resuming never lists parts.
 */

export { CLOUD_MESSAGES, MAX_SIGN_BATCH, UPLOAD_PART_BYTES } from './cloud-messages';
/** A sealed copy is a little larger than its recording (a tag every 256 KiB and a header). */
const MAX_SEALED_BYTES = sealedSize(MAX_VIDEO_BYTES);
export const MAX_UPLOAD_PARTS = Math.ceil(MAX_SEALED_BYTES / UPLOAD_PART_BYTES);

const ZSha256 = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[0-9a-f]{64}$/, 'The checksum must be a SHA-256 in hex');

/** What starting an upload names, whoever sends it (the owner's device, or a paired phone). */
export const ZUploadFields = z.object({
  videoId: z.uuid({ error: 'Video id must be a UUID' }),
  title: z
    .string({ error: CLOUD_MESSAGES.titleRequired })
    .trim()
    .min(1, CLOUD_MESSAGES.titleRequired)
    .max(200, 'The title must be at most 200 characters')
    .refine(isSingleLine, { message: SINGLE_LINE_MESSAGE }),
  promptId: z
    .string()
    .trim()
    .max(100)
    .refine(isSingleLine, { message: SINGLE_LINE_MESSAGE })
    .nullable()
    .default(null),
  byteSize: z
    .number()
    .int()
    .min(1, 'Invalid video data - no video captured')
    .max(MAX_SEALED_BYTES, 'This video is too large'),
  sha256: ZSha256,
  /** Present when the account seals its cloud copies: then size and checksum are the sealed bytes'. */
  sealed: ZSealedUpload.optional(),
});

/**
 * POST /api/uploads: start (or resume) sending one indexed video to the cloud. A device that sends
 * a copy part by part (sealed or not) declares no whole SHA-256: it sends each part's at completion
 * instead, and the copy is known by their composite. Older devices still declare the whole one.
 */
export const ZCreateUploadBody = ZUploadFields.extend({ sha256: ZSha256.optional() }).refine(
  (body) => body.sealed !== undefined || body.byteSize <= MAX_VIDEO_BYTES,
  { message: 'This video is too large', path: ['byteSize'] },
);
export type TCreateUploadBody = z.input<typeof ZCreateUploadBody>;

export type TCreateUploadResult =
  /** The cloud copy already exists and matches; nothing to send. */
  | { state: 'synced'; videoId: string }
  | {
      state: 'uploading';
      videoId: string;
      uploadId: string;
      partSize: number;
      partCount: number;
      /** The store checks each part's SHA-256: send `sha256s` to sign and `sha256` to complete. */
      needsPartChecksums: boolean;
      /** Where to PUT the first parts (up to MAX_SIGN_BATCH), so sending starts at once. */
      parts: TSignedPart[];
    };

/**
 * POST /api/uploads/:uploadId/sign: URLs to PUT these parts to. `sha256s` are the parts' SHA-256s
 * in the same order; the S3 store needs them (each link binds its part's bytes), file mode does not.
 */
export const ZSignPartsBody = z
  .object({
    partNumbers: z
      .array(z.number().int().min(1).max(MAX_UPLOAD_PARTS))
      .min(1, 'Please name at least one part')
      .max(MAX_SIGN_BATCH),
    sha256s: z.array(ZSha256).max(MAX_SIGN_BATCH).optional(),
  })
  .refine((body) => !body.sha256s || body.sha256s.length === body.partNumbers.length, {
    message: 'Please send one checksum for each part.',
    path: ['sha256s'],
  });
export type TSignPartsBody = z.input<typeof ZSignPartsBody>;

export interface TSignedPart {
  partNumber: number;
  /** Absolute (S3) or same-origin path (file mode). */
  url: string;
  /** Same-origin part URLs need the X-Device-ID header and the cookie; presigned ones must not. */
  isSameOrigin: boolean;
  /** Headers the PUT must carry exactly: they are signed into the URL. */
  headers: Record<string, string>;
}
export interface TSignPartsResult {
  parts: TSignedPart[];
}

/** The answer of a file-mode part PUT (S3 answers with an ETag header only). */
export interface TPartReceived {
  partNumber: number;
  etag: string;
}

/** POST /api/uploads/:uploadId/complete */
export const ZCompleteUploadBody = z.object({
  parts: z
    .array(
      z.object({
        partNumber: z.number().int().min(1).max(MAX_UPLOAD_PARTS),
        etag: z.string().trim().min(1).max(200),
        /** The part's SHA-256 as the device computed it; the S3 store needs it. */
        sha256: ZSha256.optional(),
      }),
    )
    .min(1, CLOUD_MESSAGES.partsMissing)
    .max(MAX_UPLOAD_PARTS),
});
export type TCompleteUploadBody = z.input<typeof ZCompleteUploadBody>;

/** GET /api/videos/:id/playback: where the player streams the cloud copy from, for a while. */
export interface TPlayback {
  url: string;
  expiresAt: string;
  mimeType: string;
  byteSize: number;
  durationMs: number;
  /**
   * A sealed copy: the URL serves sealed bytes (never playable as they are) and `keyWrap` is the
   * content key wrapped for whoever asked (null when nothing they hold opens it yet).
   */
  sealed: {
    keyWrap: string | null;
    /** Whose key opens keyWrap: the owner's account key, or the recipient key `keyId`. */
    holder: 'owner' | 'recipient';
    keyId: string | null;
  } | null;
}

/** GET /api/cloud/status: what the dashboard and the storage panel show about the cloud. */
export interface TCloudStatus {
  hasCloudSync: boolean;
  /** Bytes of this account's videos in the cloud (and uploads under way). */
  usedBytes: number;
  /** null when the account has no cloud storage. */
  quotaBytes: number | null;
  syncedCount: number;
  /** This device's last completed sync. */
  lastSyncAt: string | null;
  /** After a move to the free plan: cloud copies are kept until this date. */
  retentionExpiresAt: string | null;
}
