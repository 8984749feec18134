import { updateCrc32 } from './crc32';

/**
 * Writes a zip of stored (uncompressed, unsealed) entries by itself, ZIP64 wherever a size, an
 * offset or the entry count needs it. Each entry's CRC-32 and size are known before it is
 * written, so the local header carries them and no data descriptor follows. A video goes to the
 * file as its own Blob: the browser copies it from disk, and no byte of it passes through here.
 * Sealed archives are written by zip.js (zip-archive.ts).
 */

const MAX_16 = 0xffff;
const MAX_32 = 0xffffffff;
/** Version 4.5 of the zip format: ZIP64. Stored entries alone need 1.0, but 2.0 is the usual. */
const VERSION_ZIP64 = 45;
const VERSION_PLAIN = 20;
/** Bit 11: names are UTF-8. */
const FLAG_UTF8 = 0x0800;
/** A file's own Blob is handed over in slices of this size, so progress moves while it copies. */
const BLOB_SLICE_BYTES = 32 * 1024 * 1024;

/** What a stored zip is written to: a file's WritableStream, which takes Blobs as well as bytes. */
export type TZipTarget = WritableStream<Uint8Array | Blob>;

interface TWrittenEntry {
  name: Uint8Array;
  crc32: number;
  size: number;
  offset: number;
  time: number;
  date: number;
}

/** ZIP dates run from 1980 to 2107; any other is written as now. */
export function toZipDate(date: Date | undefined): Date {
  const year = date?.getFullYear() ?? NaN;
  return date && year >= 1980 && year <= 2107 ? date : new Date();
}

/** The MS-DOS date and time a zip records, in local time as the format has no zone. */
function toDosDateTime(when: Date | undefined): { date: number; time: number } {
  const at = toZipDate(when);
  return {
    date: ((at.getFullYear() - 1980) << 9) | ((at.getMonth() + 1) << 5) | at.getDate(),
    time: (at.getHours() << 11) | (at.getMinutes() << 5) | (at.getSeconds() >> 1),
  };
}

const encoder = new TextEncoder();

export class StoredZipWriter {
  private readonly writer: WritableStreamDefaultWriter<Uint8Array | Blob>;
  private readonly entries: TWrittenEntry[] = [];
  private offset = 0;

  constructor(target: TZipTarget) {
    this.writer = target.getWriter();
  }

  private async write(chunk: Uint8Array | Blob) {
    await this.writer.write(chunk);
    this.offset += chunk instanceof Blob ? chunk.size : chunk.length;
  }

  /** The local header of an entry whose CRC-32 and size are known; its data follows. */
  private async writeHeader(name: string, crc32: number, size: number, when: Date | undefined) {
    const encodedName = encoder.encode(name);
    const { date, time } = toDosDateTime(when);
    const isLarge = size >= MAX_32;
    const header = new Uint8Array(30 + encodedName.length + (isLarge ? 20 : 0));
    const view = new DataView(header.buffer);
    view.setUint32(0, 0x04034b50, true);
    view.setUint16(4, isLarge ? VERSION_ZIP64 : VERSION_PLAIN, true);
    view.setUint16(6, FLAG_UTF8, true);
    view.setUint16(8, 0, true);
    view.setUint16(10, time, true);
    view.setUint16(12, date, true);
    view.setUint32(14, crc32, true);
    view.setUint32(18, isLarge ? MAX_32 : size, true);
    view.setUint32(22, isLarge ? MAX_32 : size, true);
    view.setUint16(26, encodedName.length, true);
    view.setUint16(28, isLarge ? 20 : 0, true);
    header.set(encodedName, 30);
    if (isLarge) {
      const extra = 30 + encodedName.length;
      view.setUint16(extra, 0x0001, true);
      view.setUint16(extra + 2, 16, true);
      view.setBigUint64(extra + 4, BigInt(size), true);
      view.setBigUint64(extra + 12, BigInt(size), true);
    }
    this.entries.push({ name: encodedName, crc32, size, offset: this.offset, time, date });
    await this.write(header);
  }

  async addText(name: string, text: string, options: { date?: Date } = {}) {
    const bytes = encoder.encode(text);
    await this.addBytes(name, bytes, options);
  }

  /** Adds bytes already in memory; the CRC-32 is taken here unless given. */
  async addBytes(
    name: string,
    bytes: Uint8Array,
    options: { date?: Date; onBytes?: (bytes: number) => void; crc32?: number | null } = {},
  ) {
    await this.writeHeader(
      name,
      options.crc32 ?? updateCrc32(0, bytes),
      bytes.length,
      options.date,
    );
    await this.write(bytes);
    options.onBytes?.(bytes.length);
  }

  /** Adds a Blob whose CRC-32 was taken already (the measuring worker reads each video once). */
  async addBlob(
    name: string,
    blob: Blob,
    options: { date?: Date; onBytes?: (bytes: number) => void; crc32: number },
  ) {
    await this.writeHeader(name, options.crc32, blob.size, options.date);
    for (let at = 0; at < blob.size; at += BLOB_SLICE_BYTES) {
      const slice = blob.slice(at, at + BLOB_SLICE_BYTES);
      await this.write(slice);
      options.onBytes?.(slice.size);
    }
  }

  /** The central directory and its end records, then the file is closed. */
  async close(): Promise<void> {
    const directoryOffset = this.offset;
    const records = this.entries.map((entry) => centralRecord(entry));
    const directorySize = records.reduce((sum, record) => sum + record.length, 0);
    const count = this.entries.length;
    const needsZip64 = count >= MAX_16 || directoryOffset >= MAX_32 || directorySize >= MAX_32;
    const end = new Uint8Array((needsZip64 ? 56 + 20 : 0) + 22);
    const view = new DataView(end.buffer);
    let at = 0;
    if (needsZip64) {
      const endOffset = directoryOffset + directorySize;
      view.setUint32(0, 0x06064b50, true);
      view.setBigUint64(4, 44n, true);
      view.setUint16(12, VERSION_ZIP64, true);
      view.setUint16(14, VERSION_ZIP64, true);
      view.setUint32(16, 0, true);
      view.setUint32(20, 0, true);
      view.setBigUint64(24, BigInt(count), true);
      view.setBigUint64(32, BigInt(count), true);
      view.setBigUint64(40, BigInt(directorySize), true);
      view.setBigUint64(48, BigInt(directoryOffset), true);
      view.setUint32(56, 0x07064b50, true);
      view.setUint32(60, 0, true);
      view.setBigUint64(64, BigInt(endOffset), true);
      view.setUint32(72, 1, true);
      at = 76;
    }
    view.setUint32(at, 0x06054b50, true);
    view.setUint16(at + 8, Math.min(count, MAX_16), true);
    view.setUint16(at + 10, Math.min(count, MAX_16), true);
    view.setUint32(at + 12, Math.min(directorySize, MAX_32), true);
    view.setUint32(at + 16, Math.min(directoryOffset, MAX_32), true);
    // The directory goes in pieces of a few MB: a handover may hold thousands of entries.
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      if (pendingBytes === 0) return;
      await this.write(joinBytes(pending, pendingBytes));
      pending = [];
      pendingBytes = 0;
    };
    for (const record of records) {
      pending.push(record);
      pendingBytes += record.length;
      if (pendingBytes >= 4 * 1024 * 1024) await flush();
    }
    pending.push(end);
    pendingBytes += end.length;
    await flush();
    await this.writer.close();
  }
}

function joinBytes(parts: Uint8Array[], length: number): Uint8Array {
  const joined = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

/** An entry's central directory record, with a ZIP64 field for each value too large for 32 bits. */
function centralRecord(entry: TWrittenEntry): Uint8Array {
  const isLarge = entry.size >= MAX_32;
  const isFar = entry.offset >= MAX_32;
  const extraLength = isLarge || isFar ? 4 + (isLarge ? 16 : 0) + (isFar ? 8 : 0) : 0;
  const record = new Uint8Array(46 + entry.name.length + extraLength);
  const view = new DataView(record.buffer);
  const version = extraLength > 0 ? VERSION_ZIP64 : VERSION_PLAIN;
  view.setUint32(0, 0x02014b50, true);
  view.setUint16(4, VERSION_ZIP64, true);
  view.setUint16(6, version, true);
  view.setUint16(8, FLAG_UTF8, true);
  view.setUint16(10, 0, true);
  view.setUint16(12, entry.time, true);
  view.setUint16(14, entry.date, true);
  view.setUint32(16, entry.crc32, true);
  view.setUint32(20, isLarge ? MAX_32 : entry.size, true);
  view.setUint32(24, isLarge ? MAX_32 : entry.size, true);
  view.setUint16(28, entry.name.length, true);
  view.setUint16(30, extraLength, true);
  view.setUint32(42, isFar ? MAX_32 : entry.offset, true);
  record.set(entry.name, 46);
  if (extraLength > 0) {
    let at = 46 + entry.name.length;
    view.setUint16(at, 0x0001, true);
    view.setUint16(at + 2, extraLength - 4, true);
    at += 4;
    if (isLarge) {
      view.setBigUint64(at, BigInt(entry.size), true);
      view.setBigUint64(at + 8, BigInt(entry.size), true);
      at += 16;
    }
    if (isFar) view.setBigUint64(at, BigInt(entry.offset), true);
  }
  return record;
}
