import { inflateSync } from 'fflate';

const LOCAL_HEADER_SIGNATURE = 0x04034b50;
const CENTRAL_HEADER_SIGNATURE = 0x02014b50;
const END_OF_DIRECTORY_SIGNATURE = 0x06054b50;
const END_OF_DIRECTORY_BYTES = 22;
const MAX_COMMENT_BYTES = 0xffff;
const STORED = 0;
const DEFLATED = 8;

/** `not_zip`: not a zip at all. `damaged`: a zip, but cut short or broken. */
export class ZipReadError extends Error {
  override name = 'ZipReadError';
  readonly reason: 'not_zip' | 'damaged';

  constructor(reason: 'not_zip' | 'damaged', message: string) {
    super(message);
    this.reason = reason;
  }
}

export interface TZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

async function readBytes(file: Blob, start: number, end: number): Promise<DataView> {
  return new DataView(await file.slice(start, end).arrayBuffer());
}

const damaged = (detail: string) => new ZipReadError('damaged', `Damaged zip: ${detail}`);

/**
 * Reads a zip's central directory without loading the file: only the tail and the directory are
 * read, so a backup of a gigabyte restores with its videos handed out as slices of the file.
 * fflate's readers want the whole archive in one buffer, hence this small reader (decision 016).
 */
export async function readZipDirectory(file: Blob): Promise<Map<string, TZipEntry>> {
  if (file.size < END_OF_DIRECTORY_BYTES) throw new ZipReadError('not_zip', 'Too small for a zip');
  const head = await readBytes(file, 0, 4);
  if (head.getUint32(0, true) !== LOCAL_HEADER_SIGNATURE) {
    throw new ZipReadError('not_zip', 'No zip signature');
  }

  const tailStart = Math.max(0, file.size - END_OF_DIRECTORY_BYTES - MAX_COMMENT_BYTES);
  const tail = await readBytes(file, tailStart, file.size);
  let end = -1;
  for (let at = tail.byteLength - END_OF_DIRECTORY_BYTES; at >= 0; at -= 1) {
    if (tail.getUint32(at, true) === END_OF_DIRECTORY_SIGNATURE) {
      end = at;
      break;
    }
  }
  // A zip that starts well but has no end was cut short (an interrupted download or copy).
  if (end < 0) throw damaged('no end of central directory');

  const entryCount = tail.getUint16(end + 10, true);
  const directorySize = tail.getUint32(end + 12, true);
  const directoryOffset = tail.getUint32(end + 16, true);
  if (directoryOffset + directorySize > tailStart + end) throw damaged('directory out of range');

  const directory = await readBytes(file, directoryOffset, directoryOffset + directorySize);
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const entries = new Map<string, TZipEntry>();
  let at = 0;
  for (let index = 0; index < entryCount; index += 1) {
    if (
      at + 46 > directory.byteLength ||
      directory.getUint32(at, true) !== CENTRAL_HEADER_SIGNATURE
    ) {
      throw damaged('bad directory entry');
    }
    const nameLength = directory.getUint16(at + 28, true);
    const extraLength = directory.getUint16(at + 30, true);
    const commentLength = directory.getUint16(at + 32, true);
    const nameBytes = new Uint8Array(directory.buffer, at + 46, nameLength);
    const entry: TZipEntry = {
      name: decoder.decode(nameBytes),
      method: directory.getUint16(at + 10, true),
      compressedSize: directory.getUint32(at + 20, true),
      size: directory.getUint32(at + 24, true),
      localHeaderOffset: directory.getUint32(at + 42, true),
    };
    if (entry.localHeaderOffset + 30 + entry.compressedSize > file.size) {
      throw damaged(`${entry.name} out of range`);
    }
    entries.set(entry.name, entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** An entry's content: a slice of the file when stored, inflated in memory when deflated. */
export async function readZipEntry(file: Blob, entry: TZipEntry, type = ''): Promise<Blob> {
  const header = await readBytes(file, entry.localHeaderOffset, entry.localHeaderOffset + 30);
  if (header.getUint32(0, true) !== LOCAL_HEADER_SIGNATURE) throw damaged(`${entry.name} header`);
  const dataStart =
    entry.localHeaderOffset + 30 + header.getUint16(26, true) + header.getUint16(28, true);
  const dataEnd = dataStart + entry.compressedSize;
  if (dataEnd > file.size) throw damaged(`${entry.name} cut short`);

  if (entry.method === STORED) return file.slice(dataStart, dataEnd, type);
  if (entry.method !== DEFLATED) throw damaged(`${entry.name} uses an unknown compression`);
  try {
    const packed = new Uint8Array(await file.slice(dataStart, dataEnd).arrayBuffer());
    const bytes = inflateSync(packed, { out: new Uint8Array(entry.size) });
    return new Blob([bytes], { type });
  } catch {
    throw damaged(`${entry.name} does not inflate`);
  }
}

export async function readZipText(file: Blob, entry: TZipEntry): Promise<string> {
  return (await readZipEntry(file, entry)).text();
}
