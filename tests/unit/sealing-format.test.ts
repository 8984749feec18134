import { describe, expect, it } from 'vitest';
import { BlobReader } from '../../src/shared/blob-reader';
import {
  FIRST_SEGMENT_PLAINTEXT_BYTES as P0,
  generateContentKey,
  HEADER_BYTES,
  openStream,
  partCount,
  parseHeader,
  partSegments,
  plaintextLengthOf,
  readHeader,
  SEALED_SEGMENT_BYTES as S,
  sealedSize,
  sealPart,
  SEGMENT_PLAINTEXT_BYTES as P,
  segmentsPerPart,
  sealStream,
  startSealing,
} from '../../src/shared/sealing';
import { UPLOAD_PART_BYTES } from '../../src/shared/schemas/cloud-messages';
import {
  countingReader,
  expectFailure,
  expectSameBytes,
  MESSAGE_ID,
  OTHER_MESSAGE_ID,
  readAll,
  recording,
  sealBytes,
  streamOfBytes,
} from './sealing-helpers';

const PART = UPLOAD_PART_BYTES;
/** A recording whose sealed object fills three upload parts and a little of a fourth. */
const THREE_PARTS_AND_A_BIT = 3 * PART - HEADER_BYTES - 16 * 96 + 5_000;

describe('the sealed format’s sizes', () => {
  it('fills an 8 MiB upload part with exactly 32 whole sealed segments', () => {
    expect(S).toBe(262_144);
    expect(segmentsPerPart(PART)).toBe(32);
    expect(() => segmentsPerPart(5 * 1024 * 1024 + 1)).toThrow();
    expect(HEADER_BYTES + P0 + 16).toBe(S);
    expect(sealedSize(P0 + 31 * P)).toBe(PART);
    expect(partCount(THREE_PARTS_AND_A_BIT, PART)).toBe(4);
    expect(partSegments(4, THREE_PARTS_AND_A_BIT, PART)).toEqual({ first: 96, last: 96 });
  });

  it('gives back the plaintext length of any well-formed object size, and refuses others', () => {
    for (const length of [0, 1, P0 - 1, P0, P0 + 1, P0 + P, THREE_PARTS_AND_A_BIT]) {
      expect(plaintextLengthOf(sealedSize(length))).toBe(length);
    }
    expect(plaintextLengthOf(HEADER_BYTES + 15)).toBeUndefined();
    expect(plaintextLengthOf(S + 10)).toBeUndefined();
  });
});

describe('sealing and opening', () => {
  const sizes = [0, 1, P0 - 1, P0, P0 + 1, P0 + P, THREE_PARTS_AND_A_BIT];

  it.each(sizes)(
    'gives back exactly the %i bytes sealed, streamed or part by part',
    async (size) => {
      const bytes = recording(size);
      const { key, sealing, sealed } = await sealBytes(bytes);
      expectSameBytes(
        await readAll(openStream(key, streamOfBytes(sealed, 77_777), MESSAGE_ID)),
        bytes,
      );

      const blob = new Blob([bytes]);
      const parts = [];
      for (let n = 1; n <= partCount(size, PART); n++)
        parts.push(await sealPart(sealing, blob, n, PART));
      expect(parts.slice(0, -1).every((part) => part.length === PART)).toBe(true);
      expectSameBytes(Buffer.concat(parts), sealed);

      // As an upload seals them: one after another through one reader and its one buffer.
      const reader = new BlobReader(blob, PART);
      const again = [];
      for (let n = 1; n <= partCount(size, PART); n++)
        again.push(await sealPart(sealing, reader, n, PART));
      expectSameBytes(Buffer.concat(again), sealed);
    },
  );

  it('seals a part again byte for byte after a reload, from the stored key and nonce prefix', async () => {
    const bytes = recording(P0 + 3 * P);
    const { key, sealing, sealed } = await sealBytes(bytes);
    const resumed = startSealing({
      key,
      messageId: MESSAGE_ID,
      plaintextLength: bytes.length,
      noncePrefix: sealing.header.noncePrefix,
    });
    expectSameBytes(await sealPart(resumed, new Blob([bytes]), 1, PART), sealed);
  });

  it('draws a fresh nonce prefix for every new seal', async () => {
    const key = await generateContentKey();
    const first = startSealing({ key, messageId: MESSAGE_ID, plaintextLength: 10 });
    const second = startSealing({ key, messageId: MESSAGE_ID, plaintextLength: 10 });
    expect(first.header.noncePrefix).not.toEqual(second.header.noncePrefix);
  });

  it('refuses to seal a recording of another size than the header says', async () => {
    const key = await generateContentKey();
    const sealing = startSealing({ key, messageId: MESSAGE_ID, plaintextLength: 1000 });
    await expectFailure(sealPart(sealing, new Blob([recording(999)]), 1, PART), 'range');
    await expectFailure(readAll(sealStream(sealing, streamOfBytes(recording(999)))), 'truncated');
    await expectFailure(readAll(sealStream(sealing, streamOfBytes(recording(1001)))), 'extended');
  });
});

describe('a changed object never opens', () => {
  /** Four segments: the middle two are full, so they can be swapped. */
  const bytes = recording(P0 + 2 * P + 1000);
  const segment = (sealed: Uint8Array, i: number) => sealed.slice(i * S, (i + 1) * S);
  const open = (key: CryptoKey, sealed: Uint8Array, id = MESSAGE_ID) =>
    readAll(openStream(key, streamOfBytes(sealed), id));

  it('fails on any changed byte: in a segment, its tag, or the header', async () => {
    const { key, sealed } = await sealBytes(bytes);
    for (const position of [HEADER_BYTES + 5, S + 1234, 2 * S - 1, sealed.length - 1, 24, 35]) {
      const changed = sealed.slice();
      changed[position] = (changed[position] ?? 0) ^ 0x01;
      await expectFailure(open(key, changed), 'segment');
    }
  });

  it('fails when cut at a segment boundary or inside the last segment', async () => {
    const { key, sealed } = await sealBytes(bytes);
    await expectFailure(open(key, sealed.slice(0, 3 * S)), 'truncated');
    await expectFailure(open(key, sealed.slice(0, S)), 'truncated');
    await expectFailure(open(key, sealed.slice(0, sealed.length - 1)), 'truncated');
    await expectFailure(open(key, sealed.slice(0, 20)), 'truncated');
    const { read } = countingReader(sealed.slice(0, 3 * S));
    await expectFailure(
      readHeader(read, { messageId: MESSAGE_ID, objectSize: 3 * S }),
      'truncated',
    );
  });

  it('fails when the last segment is dropped and the header made to say the shorter length', async () => {
    const { key, sealed } = await sealBytes(bytes);
    const cut = sealed.slice(0, 3 * S);
    new DataView(cut.buffer).setBigUint64(32, BigInt(P0 + 2 * P));
    await expectFailure(open(key, cut), 'segment');
  });

  it('fails when two segments change places', async () => {
    const { key, sealed } = await sealBytes(bytes);
    expect(sealed.length).toBe(3 * S + 1000 + 16);
    const reordered = Buffer.concat([
      segment(sealed, 0),
      segment(sealed, 2),
      segment(sealed, 1),
      segment(sealed, 3),
    ]);
    await expectFailure(open(key, reordered), 'segment');
  });

  it('fails with a segment from another message, even one sealed under the same key', async () => {
    const key = await generateContentKey();
    const mine = await sealBytes(bytes, { key });
    const other = await sealBytes(bytes, { key, messageId: OTHER_MESSAGE_ID });
    const swapped = mine.sealed.slice();
    swapped.set(segment(other.sealed, 1), S);
    await expectFailure(open(key, swapped), 'segment');
    // A whole object of another message, handed out under this message's name.
    await expectFailure(open(key, other.sealed), 'wrong-message');
  });

  it('fails when the header is altered or is not ours', async () => {
    const { key, sealed } = await sealBytes(bytes);
    const version = sealed.slice();
    version[4] = 2;
    await expectFailure(open(key, version), 'header');
    const renamed = sealed.slice();
    renamed[8] = (renamed[8] ?? 0) ^ 0x10;
    await expectFailure(open(key, renamed), 'wrong-message');
    // Asked for under the altered name, the header fails its check with the first segment.
    await expectFailure(open(key, renamed, parseHeader(renamed).messageId), 'segment');
    const video = recording(2000);
    await expectFailure(open(key, video), 'header');
  });

  it('fails when a segment or any bytes are appended after the last', async () => {
    const { key, sealed } = await sealBytes(bytes);
    await expectFailure(open(key, Buffer.concat([sealed, segment(sealed, 1)])), 'extended');
    await expectFailure(open(key, Buffer.concat([sealed, new Uint8Array(1)])), 'extended');
    const { read } = countingReader(sealed);
    await expectFailure(
      readHeader(read, { messageId: MESSAGE_ID, objectSize: sealed.length + S }),
      'extended',
    );
  });

  it('fails under another key', async () => {
    const { sealed } = await sealBytes(bytes);
    await expectFailure(open(await generateContentKey(), sealed), 'segment');
  });
});
