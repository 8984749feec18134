import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TVideoIndexEntry } from '../../src/shared/schemas/videos';
import type { TestDevice } from '../setup/app';
import {
  createPaidOwner,
  indexVideo,
  PART_BYTES,
  sha256,
  useCloudApp,
  withSums,
} from '../setup/cloud';

// The library's index tells the owner's devices the SHA-256 of each cloud copy, so a new device
// that brings the copies down keeps only what was sent.

describe('the checksum of a cloud copy in the library’s index', () => {
  const t = useCloudApp('file');

  /** Sends the whole recording the way a device does (file mode signs every part at once). */
  async function sendToCloud(device: TestDevice, videoId: string, bytes: Buffer) {
    const created = await device.post('/api/uploads', {
      videoId,
      title: 'For Susan',
      promptId: null,
      byteSize: bytes.length,
      sha256: sha256(bytes),
    });
    expect(created.statusCode).toBe(200);
    const upload = created.json<{
      uploadId: string;
      partSize: number;
      parts: { partNumber: number; url: string }[];
    }>();
    const parts = [];
    for (const part of upload.parts) {
      const start = (part.partNumber - 1) * upload.partSize;
      const sent = await device.request({
        method: 'PUT',
        url: part.url,
        payload: bytes.subarray(start, start + upload.partSize),
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(sent.statusCode).toBe(200);
      parts.push({ partNumber: part.partNumber, etag: sent.headers.etag as string });
    }
    return device.post(`/api/uploads/${upload.uploadId}/complete`, {
      parts: withSums(bytes, parts),
    });
  }

  it('is the SHA-256 of the bytes the cloud serves, and none while a message is only local', async () => {
    const owner = await createPaidOwner(t);
    const bytes = randomBytes(PART_BYTES * 2 + 321);
    const inCloud = await indexVideo(owner.device, owner.nextOfKin.id, bytes.length);
    const onlyLocal = await indexVideo(owner.device, owner.nextOfKin.id, 1000);
    expect(
      (await owner.device.get('/api/videos')).json<TVideoIndexEntry[]>().map((e) => e.sha256),
    ).toEqual([null, null]);

    const completed = await sendToCloud(owner.device, inCloud, bytes);
    expect(completed.statusCode).toBe(200);
    expect(completed.json()).toMatchObject({ id: inCloud, sha256: sha256(bytes) });

    const index = (await owner.device.get('/api/videos')).json<TVideoIndexEntry[]>();
    expect(index.find((entry) => entry.id === inCloud)).toMatchObject({
      syncStatus: 'synced',
      storageType: 'cloud',
      sha256: sha256(bytes),
    });
    expect(index.find((entry) => entry.id === onlyLocal)).toMatchObject({
      syncStatus: 'local_only',
      sha256: null,
    });

    // What a new device fetches from the playback URL hashes to the same value.
    const playback = await owner.device.get(`/api/videos/${inCloud}/playback`);
    const copy = await t.app.inject({ method: 'GET', url: playback.json<{ url: string }>().url });
    expect(copy.statusCode).toBe(200);
    expect(sha256(copy.rawPayload)).toBe(index.find((entry) => entry.id === inCloud)!.sha256);
  });
});
