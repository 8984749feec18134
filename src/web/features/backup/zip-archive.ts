import {
  BlobReader,
  configure,
  ERR_ENCRYPTED,
  ERR_INVALID_PASSWORD,
  Reader,
  TextReader,
  TextWriter,
  ZipReader,
  ZipWriter,
  type Entry,
  type FileEntry,
} from '@zip.js/zip.js/lib/zip-core-native.js';
import { toZipDate } from './stored-zip';

/** Videos are read from the store and handed to the zip in slices of this size. */
export const READ_SLICE_BYTES = 4 * 1024 * 1024;

// The backup already runs in our own module worker, so zip.js starts no workers of its own
// (those would need blob: or extra script sources in the content security policy). It reads and
// writes in slices of 4 MiB: each slice read from a File is a round trip to the browser.
configure({ useWebWorkers: false, chunkSize: READ_SLICE_BYTES });

/** Hands zip.js views of bytes already in memory, where its Uint8ArrayReader copies each slice. */
class BytesViewReader extends Reader<Uint8Array> {
  private readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    super(bytes);
    this.bytes = bytes;
    this.size = bytes.length;
  }

  override readUint8Array(index: number, length: number): Promise<Uint8Array> {
    return Promise.resolve(this.bytes.subarray(index, index + length));
  }
}

/**
 * Writes a sealed zip to a WritableStream: every entry stored (video is compressed already) and
 * sealed with WinZip AES-256 but those asked to stay readable, ZIP64 wherever a size or offset
 * needs it. Plain archives are written by StoredZipWriter (stored-zip.ts).
 */
export class ZipStreamWriter {
  private readonly writer: ZipWriter<unknown>;
  private readonly passphrase: string;

  constructor(target: WritableStream<Uint8Array | Blob>, passphrase: string) {
    this.passphrase = passphrase;
    this.writer = new ZipWriter(target, { level: 0, keepOrder: true, useWebWorkers: false });
  }

  private sealing(isPlain: boolean) {
    return isPlain ? {} : { password: this.passphrase, encryptionStrength: 3 as const };
  }

  async addText(name: string, text: string, options: { date?: Date; isPlain?: boolean } = {}) {
    await this.writer.add(name, new TextReader(text), {
      lastModDate: toZipDate(options.date),
      ...this.sealing(options.isPlain ?? false),
    });
  }

  /** Adds bytes already read; `onBytes` reports how many have gone into the file. */
  async addBytes(
    name: string,
    bytes: Uint8Array,
    options: { date?: Date; onBytes?: (bytes: number) => void } = {},
  ) {
    let reported = 0;
    await this.writer.add(name, new BytesViewReader(bytes), {
      lastModDate: toZipDate(options.date),
      ...this.sealing(false),
      onprogress: (progress) => {
        options.onBytes?.(progress - reported);
        reported = progress;
        return undefined;
      },
    });
    if (reported < bytes.length) options.onBytes?.(bytes.length - reported);
  }

  async close(): Promise<void> {
    await this.writer.close();
  }
}

/**
 * A WritableStream that keeps what it is given as Blob parts, for browsers without a file
 * picker: each part may live on disk, so no giant buffer is built, and a Blob given (a video)
 * becomes a part as it is.
 */
export function createBlobTarget(type: string) {
  const parts: Blob[] = [];
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const flush = () => {
    if (pendingBytes === 0) return;
    parts.push(new Blob(pending as Uint8Array<ArrayBuffer>[]));
    pending = [];
    pendingBytes = 0;
  };
  const stream = new WritableStream<Uint8Array | Blob>({
    write(chunk) {
      if (chunk instanceof Blob) {
        flush();
        parts.push(chunk);
        return;
      }
      // zip.js may reuse its buffers, so each chunk is copied before it is kept.
      pending.push(chunk.slice());
      pendingBytes += chunk.length;
      if (pendingBytes >= READ_SLICE_BYTES) flush();
    },
    close: flush,
  });
  return { stream, toBlob: () => new Blob(parts, { type }) };
}

/** `not_zip`: not a zip at all. `damaged`: a zip, but cut short or broken. */
export class ZipReadError extends Error {
  override name = 'ZipReadError';
  readonly reason: 'not_zip' | 'damaged' | 'wrong_passphrase' | 'needs_passphrase';

  constructor(reason: ZipReadError['reason'], message: string) {
    super(message);
    this.reason = reason;
  }
}

export type TZipEntry = FileEntry;

const LOCAL_HEADER_SIGNATURE = 0x04034b50;

/** Reads any zip, ZIP64 included, from a Blob or File with random access: nothing loads whole. */
export async function readZipDirectory(file: Blob): Promise<Map<string, TZipEntry>> {
  const head = new DataView(await file.slice(0, 4).arrayBuffer());
  if (head.byteLength < 4 || head.getUint32(0, true) !== LOCAL_HEADER_SIGNATURE) {
    throw new ZipReadError('not_zip', 'No zip signature');
  }
  let entries: Entry[];
  try {
    entries = await new ZipReader(new BlobReader(file), { useWebWorkers: false }).getEntries();
  } catch (error) {
    throw new ZipReadError('damaged', error instanceof Error ? error.message : 'Unreadable zip');
  }
  const files = new Map<string, TZipEntry>();
  for (const entry of entries) {
    if (entry.directory) continue;
    if (entry.offset + entry.compressedSize > file.size) {
      throw new ZipReadError('damaged', `${entry.filename} out of range`);
    }
    files.set(entry.filename, entry);
  }
  return files;
}

function toReadError(error: unknown, entry: TZipEntry): ZipReadError {
  const name = entry.filename;
  const message = error instanceof Error ? error.message : '';
  // A sealed entry's check value (2 bytes) may pass by chance; its HMAC then fails instead.
  if (message === ERR_INVALID_PASSWORD || (entry.encrypted && message.includes('signature'))) {
    return new ZipReadError('wrong_passphrase', `${name}: wrong passphrase`);
  }
  if (message === ERR_ENCRYPTED) return new ZipReadError('needs_passphrase', name);
  return new ZipReadError('damaged', `${name}: ${message || 'unreadable'}`);
}

/**
 * The file's own bytes of an entry that is stored and not sealed, as a slice of the file (no copy
 * is made); null for any other entry. Its data starts after the local header, whose name and extra
 * field may differ in length from the directory's.
 */
export async function findStoredEntryBytes(
  file: Blob,
  entry: TZipEntry,
  type: string,
): Promise<Blob | null> {
  if (entry.encrypted || entry.compressionMethod !== 0) return null;
  if (entry.compressedSize !== entry.uncompressedSize) return null;
  const header = new DataView(await file.slice(entry.offset, entry.offset + 30).arrayBuffer());
  if (header.byteLength < 30 || header.getUint32(0, true) !== LOCAL_HEADER_SIGNATURE) return null;
  const start = entry.offset + 30 + header.getUint16(26, true) + header.getUint16(28, true);
  const end = start + entry.uncompressedSize;
  return end <= file.size ? file.slice(start, end, type) : null;
}

/**
 * An entry's content (stored, deflated or sealed) in one buffer of the size its directory
 * records; null when the content is longer or shorter than that. `isCheckedByCaller` skips the
 * zip's own CRC-32 and seal code for content the caller checks against a stronger hash.
 */
export async function readZipEntryBytes(
  entry: TZipEntry,
  options: {
    passphrase?: string | null;
    isCheckedByCaller?: boolean;
    onBytes?: (bytes: number) => void;
  } = {},
): Promise<Uint8Array<ArrayBuffer> | null> {
  if (entry.encrypted && !options.passphrase) {
    throw new ZipReadError('needs_passphrase', entry.filename);
  }
  const bytes = new Uint8Array(entry.uncompressedSize);
  let length = 0;
  let isOversized = false;
  const target = new WritableStream<Uint8Array>({
    write(chunk) {
      if (length + chunk.length > bytes.length) {
        isOversized = true;
        return;
      }
      bytes.set(chunk, length);
      length += chunk.length;
    },
  });
  let reported = 0;
  const isChecked = !options.isCheckedByCaller;
  try {
    await entry.getData(target, {
      password: entry.encrypted ? (options.passphrase ?? undefined) : undefined,
      checkSignature: isChecked,
      checkAuthenticationCode: isChecked,
      useWebWorkers: false,
      onprogress: (progress) => {
        options.onBytes?.(progress - reported);
        reported = progress;
        return undefined;
      },
    });
  } catch (error) {
    throw toReadError(error, entry);
  }
  return isOversized || length !== bytes.length ? null : bytes;
}

export async function readZipText(entry: TZipEntry, passphrase?: string | null): Promise<string> {
  if (entry.encrypted && !passphrase) throw new ZipReadError('needs_passphrase', entry.filename);
  try {
    return await entry.getData(new TextWriter(), {
      password: entry.encrypted ? (passphrase ?? undefined) : undefined,
      checkSignature: true,
      useWebWorkers: false,
    });
  } catch (error) {
    throw toReadError(error, entry);
  }
}
