import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { expect, it } from 'vitest';
import {
  getLocalUpload,
  getVideo,
  getVideoBlob,
  LOCAL_DB_NAME,
  LOCAL_DB_VERSION,
  localDb,
} from '@web/lib/videos/local-store';

const VIDEO_ID = '3f1c2b9a-6d4e-4f80-9a1b-2c3d4e5f6071';

it('keeps every recording, chunk and upload when the key stores are added', async () => {
  // Unit files share one module graph (isolate: false), so another file may have opened the
  // library already: start from no database at all, and let the library open afresh.
  localDb.close({ disableAutoOpen: false });
  await Dexie.delete(LOCAL_DB_NAME);
  // The database as the version before enhanced encryption left it.
  const before = new Dexie(LOCAL_DB_NAME);
  before.version(35).stores({
    videos: 'id, creatorId, recipientId, [creatorId+recipientId], createdAt',
    chunks: '[videoId+index], videoId',
    drafts: 'id, creatorId',
  });
  before.version(36).stores({ uploads: 'videoId' });
  await before.table('videos').put({
    id: VIDEO_ID,
    creatorId: 7,
    recipientId: 11,
    title: 'For Susan',
    promptId: null,
    mimeType: 'video/webm',
    byteSize: 6,
    durationMs: 1000,
    chunkCount: 2,
    createdAt: '2026-12-01T10:00:00.000Z',
    syncStatus: 'pending_sync',
    indexedAt: '2026-12-01T10:00:01.000Z',
  });
  await before.table('chunks').bulkPut([
    { videoId: VIDEO_ID, index: 0, data: new Blob([new Uint8Array([1, 2, 3])]) },
    { videoId: VIDEO_ID, index: 1, data: new Blob([new Uint8Array([4, 5, 6])]) },
  ]);
  await before.table('uploads').put({
    videoId: VIDEO_ID,
    uploadId: 'u1',
    partSize: 8 * 1024 * 1024,
    partCount: 1,
    sha256: 'a'.repeat(64),
    etags: { 1: '"e1"' },
  });
  before.close();

  const video = await getVideo(VIDEO_ID);
  expect(video?.title).toBe('For Susan');
  expect([...new Uint8Array(await (await getVideoBlob(video!)).arrayBuffer())]).toEqual([
    1, 2, 3, 4, 5, 6,
  ]);
  expect((await getLocalUpload(VIDEO_ID))?.etags).toEqual({ 1: '"e1"' });
  expect(localDb.verno).toBe(LOCAL_DB_VERSION);
  expect(await localDb.keys.count()).toBe(0);
  expect(await localDb.sealings.count()).toBe(0);
});
