import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  createOnboardedUser,
  setTier,
  useTestApp,
  type SharedTestApp,
  type TestApp,
  type TestDevice,
} from './app';
import { startS3Server } from './s3';

// What the cloud library's tests share: the app in either storage mode, paid owners, indexed
// recordings, and the per-part checksums a device sends.

/** Small parts, so a recording of a few hundred KiB spans several. */
export const PART_BYTES = 64 * 1024;

export type StorageMode = 'file' | 's3';
export type TestS3 = Awaited<ReturnType<typeof startS3Server>>;

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Part n (from 1) of a recording. */
export const partOf = (bytes: Buffer, n: number) =>
  bytes.subarray((n - 1) * PART_BYTES, n * PART_BYTES);

/** The device's SHA-256 of each of these parts of a recording (the S3 store checks them). */
export const partSums = (bytes: Buffer, partNumbers: readonly number[]) =>
  partNumbers.map((n) => sha256(partOf(bytes, n)));

/** Completed parts as the device reports them: the ETags it was answered and its checksums. */
export const withSums = (bytes: Buffer, parts: Array<{ partNumber: number; etag: string }>) =>
  parts.map((part) => ({ ...part, sha256: sha256(partOf(bytes, part.partNumber)) }));

/**
 * For the tests of one `describe`: the app with files under DATA_DIR, or with a fresh s3rver of
 * its own, and the installation's admin registered first, so the owners the tests make are
 * ordinary. Closed (the store after the app) after the tests.
 */
export function useCloudApp(mode: StorageMode): SharedTestApp {
  let s3: TestS3 | undefined;
  beforeAll(async () => {
    if (mode === 's3') s3 = await startS3Server();
  });
  afterAll(async () => {
    await s3?.close();
  });
  return useTestApp(() => ({ env: s3?.env ?? {}, uploadPartBytes: PART_BYTES, admin: true }));
}

/** A premium owner with a next of kin, signed in on their primary device. */
export async function createPaidOwner(t: TestApp) {
  const owner = await createOnboardedUser(t);
  await setTier(t, owner.user.id, 'premium');
  return owner;
}

/** Indexes a new recording of this size for the recipient; answers its id. */
export async function indexVideo(device: TestDevice, recipientId: number, byteSize: number) {
  const id = randomUUID();
  const res = await device.post('/api/videos', {
    id,
    recipientId,
    metadata: { byteSize, durationMs: 4000, mimeType: 'video/webm' },
  });
  expect(res.statusCode).toBe(201);
  return id;
}
