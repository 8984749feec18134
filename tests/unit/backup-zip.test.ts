import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { StoredZipWriter } from '@web/features/backup/stored-zip';
import {
  createBlobTarget,
  findStoredEntryBytes,
  readZipDirectory,
  readZipText,
} from '@web/features/backup/zip-archive';

const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());
const date = new Date(2026, 10, 28, 10, 20, 30);

/** A plain archive written by the stored-entry writer into Blob parts, as a browser without a picker does. */
async function writeArchive(write: (zip: StoredZipWriter) => Promise<void>): Promise<Blob> {
  const target = createBlobTarget('application/zip');
  const zip = new StoredZipWriter(target.stream);
  await write(zip);
  await zip.close();
  return target.toBlob();
}

describe('plain archives written entry by entry', () => {
  it('hold text, bytes and Blobs as stored entries that other readers and the restore read back', async () => {
    const bytes = new Uint8Array(randomBytes(5 * 1024 * 1024 + 7));
    const video = new Blob([randomBytes(40 * 1024 * 1024), randomBytes(3)]);
    const videoBytes = await bytesOf(video);
    const archive = await writeArchive(async (zip) => {
      await zip.addText('manifest.json', '{"title": "Für Oma"}', { date });
      await zip.addBytes('videos/a.webm', bytes, { date });
      await zip.addBlob('videos/b.webm', video, { date, crc32: crc32(videoBytes) });
      await zip.addBytes('empty.txt', new Uint8Array(0), { date });
    });

    // fflate checks every entry's CRC-32 as it reads.
    const files = unzipSync(await bytesOf(archive));
    expect(Object.keys(files)).toEqual([
      'manifest.json',
      'videos/a.webm',
      'videos/b.webm',
      'empty.txt',
    ]);
    expect(strFromU8(files['manifest.json']!)).toBe('{"title": "Für Oma"}');
    expect(Buffer.from(files['videos/a.webm']!).equals(bytes)).toBe(true);
    expect(Buffer.from(files['videos/b.webm']!).equals(videoBytes)).toBe(true);
    expect(files['empty.txt']).toHaveLength(0);

    const entries = await readZipDirectory(archive);
    const entry = entries.get('videos/b.webm')!;
    expect(entry).toMatchObject({ compressionMethod: 0, encrypted: false, zip64: false });
    expect(entry.lastModDate.getTime()).toBe(date.getTime());
    const stored = await findStoredEntryBytes(archive, entry, 'video/webm');
    expect(Buffer.from(await bytesOf(stored!)).equals(videoBytes)).toBe(true);
    expect(await readZipText(entries.get('manifest.json')!)).toBe('{"title": "Für Oma"}');
  });

  it('use ZIP64 for an entry over 4 GiB, for entries that start past 4 GiB, and for more than 65,535 entries', async () => {
    // Node's Blobs stop at 4 GiB, so the huge video is 4.2 GiB of one 32 MiB part repeated, and
    // the archive is kept as the parts the writer gave, read back through slices of them.
    const part = new Blob([randomBytes(32 * 1024 * 1024)]);
    const huge = new RepeatedBlob(part, 135 * part.size);
    const archive = new PartsFile();
    const zip = new StoredZipWriter(archive.stream);
    await zip.addText('first.txt', 'first', { date });
    // The CRC-32 of 4.2 GiB would take seconds; this test reads the directory, not the data.
    await zip.addBlob('videos/huge.webm', huge, { date, crc32: 0x12345678 });
    for (let index = 0; index < 65_600; index += 1) {
      await zip.addText(`after/${index}.txt`, String(index), { date });
    }
    await zip.close();
    const file = archive as unknown as Blob;

    const entries = await readZipDirectory(file);
    expect(entries.size).toBe(65_602);
    const hugeEntry = entries.get('videos/huge.webm')!;
    expect(hugeEntry).toMatchObject({
      uncompressedSize: huge.size,
      compressedSize: huge.size,
      crc32: 0x12345678,
      zip64: true,
    });
    const last = entries.get('after/65599.txt')!;
    expect(last.offset).toBeGreaterThan(2 ** 32);
    // zip.js checks the local header and the CRC-32 of an entry it reads.
    expect(await readZipText(last)).toBe('65599');
    // The restore finds the huge entry's bytes after its local header and that header's ZIP64 field.
    const stored = await findStoredEntryBytes(file, hugeEntry, 'video/webm');
    expect(stored?.size).toBe(huge.size);
    const start = await bytesOf(stored!.slice(0, part.size));
    expect(Buffer.from(start).equals(await bytesOf(part))).toBe(true);
  }, 60_000);
});

/** A Blob of `size` bytes made of `part` over and over; its slices are real Blobs. */
class RepeatedBlob extends Blob {
  readonly #part: Blob;
  readonly #size: number;

  constructor(part: Blob, size: number) {
    super([]);
    this.#part = part;
    this.#size = size;
  }

  override get size() {
    return this.#size;
  }

  override slice(start = 0, end = this.#size): Blob {
    const length = Math.min(end, this.#size) - start;
    if (length > this.#part.size || start % this.#part.size !== 0) throw new Error('unaligned');
    return this.#part.slice(0, length);
  }
}

/**
 * A file made of the parts written to it, of any size; `slice` gives a real Blob, or a view of
 * the same kind when the range is over Node's 4 GiB. Small writes in a row are kept as one part,
 * and a slice finds its first part by binary search: 65,000 entries stay quick to write and read.
 */
class PartsFile {
  readonly parts: { start: number; data: Blob }[] = [];
  size = 0;
  #pending: Uint8Array<ArrayBuffer>[] = [];
  #pendingStart = 0;
  readonly stream = new WritableStream<Uint8Array | Blob>({
    write: (chunk) => {
      if (chunk instanceof Blob) {
        this.#flush();
        this.parts.push({ start: this.size, data: chunk });
      } else {
        if (this.#pending.length === 0) this.#pendingStart = this.size;
        this.#pending.push(chunk.slice());
      }
      this.size += chunk instanceof Blob ? chunk.size : chunk.byteLength;
    },
    close: () => this.#flush(),
  });

  #flush() {
    if (this.#pending.length === 0) return;
    this.parts.push({ start: this.#pendingStart, data: new Blob(this.#pending) });
    this.#pending = [];
  }

  slice(start = 0, end = this.size): Blob {
    this.#flush();
    const stop = Math.min(end, this.size);
    if (stop - start > 2 ** 32) {
      const view = new PartsFile();
      for (const part of this.parts) view.parts.push({ ...part, start: part.start - start });
      view.size = stop - start;
      return view as unknown as Blob;
    }
    let low = 0;
    let high = this.parts.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      const part = this.parts[middle]!;
      if (part.start + part.data.size <= start) low = middle + 1;
      else high = middle;
    }
    const pieces: Blob[] = [];
    for (let index = low; index < this.parts.length; index += 1) {
      const part = this.parts[index]!;
      if (part.start >= stop) break;
      pieces.push(part.data.slice(Math.max(0, start - part.start), stop - part.start));
    }
    return new Blob(pieces);
  }
}
