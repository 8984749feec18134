import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { expect, it } from 'vitest';
import {
  forgetChunks,
  keepChunks,
  listChunkIndexes,
  missingChunks,
  readChunks,
} from '@web/features/transfer/received-chunks';
import { TRANSFER_CHUNK_BYTES } from '@web/features/transfer/transfer-frames';

// A message moving tablet to tablet is kept a piece's worth of chunks to a row while it arrives;
// after an interruption the new tablet asks only for the chunks it lacks, and the kept ones read
// back in order, byte for byte, whatever rows they came in.

const VIDEO_ID = '7c1d2b9a-6d4e-4f80-9a1b-2c3d4e5f6072';

const chunk = (index: number, length = TRANSFER_CHUNK_BYTES) => ({
  index,
  bytes: new Uint8Array(length).fill(index + 1),
});

it('reads back every kept chunk in order, from rows of several, a row with a gap and an older single-chunk row', async () => {
  await forgetChunks(VIDEO_ID);
  await keepChunks(VIDEO_ID, [chunk(0), chunk(1), chunk(2)]);
  // Asked for again around chunk 6, already here: one row, two places.
  await keepChunks(VIDEO_ID, [chunk(5), chunk(7, 1234)]);
  await keepChunks(VIDEO_ID, [chunk(6)]);
  // A row as the version before kept them: one chunk, no list of numbers.
  const older = new Dexie('memento-transfer');
  older.version(1).stores({ chunks: '[videoId+index], videoId' });
  await older
    .table('chunks')
    .put({ videoId: VIDEO_ID, index: 3, data: new Blob([chunk(3).bytes]) });
  older.close();

  expect(await listChunkIndexes(VIDEO_ID)).toEqual([0, 1, 2, 3, 5, 6, 7]);
  expect(missingChunks(8, await listChunkIndexes(VIDEO_ID))).toEqual([4]);
  const blobs = await readChunks(VIDEO_ID);
  // The first row whole, the older row, the row with a gap cut in two around the row between.
  expect(blobs.map((blob) => blob.size)).toEqual([
    3 * TRANSFER_CHUNK_BYTES,
    ...Array(3).fill(TRANSFER_CHUNK_BYTES),
    1234,
  ]);
  const message = new Uint8Array(await new Blob(blobs).arrayBuffer());
  expect(message.length).toBe(6 * TRANSFER_CHUNK_BYTES + 1234);
  const firstByteOfEach = [0, 1, 2, 3, 4, 5, 6].map((at) => message[at * TRANSFER_CHUNK_BYTES]);
  expect(firstByteOfEach).toEqual([1, 2, 3, 4, 6, 7, 8]);

  await forgetChunks(VIDEO_ID);
  expect(await listChunkIndexes(VIDEO_ID)).toEqual([]);
});
