import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BlobReader,
  configure,
  Uint8ArrayWriter,
  ZipReader,
} from '@zip.js/zip.js/lib/zip-core-native.js';

configure({ useWebWorkers: false });

const here = path.dirname(fileURLToPath(import.meta.url));

/** A version 1 backup made by the fflate writer that version 2 replaced. */
export const V1_BACKUP = path.join(here, 'backup-v1.zip');

export interface TUnzipped {
  /** Entry names in the order of the zip's directory. */
  names: string[];
  files: Record<string, Uint8Array>;
  encrypted: Record<string, boolean>;
}

/** Reads a zip from disk with zip.js, as any tool would (a passphrase for sealed entries). */
export async function unzipFile(file: string, passphrase?: string): Promise<TUnzipped> {
  const reader = new ZipReader(new BlobReader(new Blob([readFileSync(file)])));
  const result: TUnzipped = { names: [], files: {}, encrypted: {} };
  for (const entry of await reader.getEntries()) {
    if (entry.directory) continue;
    result.names.push(entry.filename);
    result.encrypted[entry.filename] = entry.encrypted;
    if (!entry.encrypted || passphrase) {
      result.files[entry.filename] = await entry.getData(new Uint8ArrayWriter(), {
        password: passphrase,
      });
    }
  }
  await reader.close();
  return result;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * The version 1 fixture made over to another account, byte for byte otherwise: the account in
 * its manifest is rewritten to the same length (JSON allows the padding spaces) and the CRC-32
 * in its data descriptor and directory entry follows, so the file stays a valid fflate zip.
 */
export function writeV1BackupFor(account: { id: number; username: string }, out: string): void {
  const zip = Buffer.from(readFileSync(V1_BACKUP));
  const before = '"id": 900000001,\n    "username": "v1-fixture-account-padded-to-forty-chars"';
  const start = zip.indexOf(before);
  if (start < 0) throw new Error('The version 1 fixture changed');
  const replacement = `"id": ${account.id},\n    "username": "${account.username}"`;
  const padded = replacement.replace('\n', ' '.repeat(before.length - replacement.length) + '\n');
  if (padded.length !== before.length) throw new Error('Username too long for the fixture');
  zip.write(padded, start, 'utf8');

  // manifest.json is the first entry; flag bit 3: its CRC-32 sits in a data descriptor.
  const dataStart = 30 + zip.readUInt16LE(26) + zip.readUInt16LE(28);
  const directoryStart = zip.readUInt32LE(zip.length - 22 + 16);
  const descriptor = zip.indexOf(Buffer.from([0x50, 0x4b, 0x07, 0x08]), dataStart);
  const crc = crc32(zip.subarray(dataStart, descriptor));
  zip.writeUInt32LE(crc, descriptor + 4);
  zip.writeUInt32LE(crc, directoryStart + 16);
  writeFileSync(out, zip);
}

/**
 * A backup written by hand in the ZIP64 format throughout: every entry carries its sizes and
 * offset in a ZIP64 extra field, and the directory ends with the ZIP64 records, because it holds
 * more entries (`fillerCount` empty files beside the backup's own) than a plain zip can count.
 */
export function writeZip64Backup(
  entries: { name: string; bytes: Uint8Array }[],
  fillerCount: number,
  out: string,
): void {
  const all = [
    ...entries,
    ...Array.from({ length: fillerCount }, (_, index) => ({
      name: `filler/${index}.txt`,
      bytes: new Uint8Array(0),
    })),
  ];
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  const zip64Extra = (size: number, at: number) => {
    const extra = Buffer.alloc(4 + 24);
    extra.writeUInt16LE(0x0001, 0);
    extra.writeUInt16LE(24, 2);
    extra.writeBigUInt64LE(BigInt(size), 4);
    extra.writeBigUInt64LE(BigInt(size), 12);
    extra.writeBigUInt64LE(BigInt(at), 20);
    return extra;
  };
  for (const { name, bytes } of all) {
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = crc32(bytes);
    const extra = zip64Extra(bytes.length, offset);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(45, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(0xffffffff, 18);
    local.writeUInt32LE(0xffffffff, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(20, 28);
    // In a local header the ZIP64 field holds the two sizes only.
    const localExtra = extra.subarray(0, 20);
    localExtra.writeUInt16LE(16, 2);
    chunks.push(local, nameBytes, Buffer.from(localExtra), Buffer.from(bytes));

    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(45, 4);
    header.writeUInt16LE(45, 6);
    header.writeUInt16LE(0x0800, 8);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(0xffffffff, 20);
    header.writeUInt32LE(0xffffffff, 24);
    header.writeUInt16LE(nameBytes.length, 28);
    header.writeUInt16LE(28, 30);
    header.writeUInt32LE(0xffffffff, 42);
    const centralExtra = zip64Extra(bytes.length, offset);
    central.push(header, nameBytes, centralExtra);
    offset += 30 + nameBytes.length + 20 + bytes.length;
  }
  const directory = Buffer.concat(central);
  const end64 = Buffer.alloc(56);
  end64.writeUInt32LE(0x06064b50, 0);
  end64.writeBigUInt64LE(44n, 4);
  end64.writeUInt16LE(45, 12);
  end64.writeUInt16LE(45, 14);
  end64.writeBigUInt64LE(BigInt(all.length), 24);
  end64.writeBigUInt64LE(BigInt(all.length), 32);
  end64.writeBigUInt64LE(BigInt(directory.length), 40);
  end64.writeBigUInt64LE(BigInt(offset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(offset + directory.length), 8);
  locator.writeUInt32LE(1, 16);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0xffff, 8);
  end.writeUInt16LE(0xffff, 10);
  end.writeUInt32LE(0xffffffff, 12);
  end.writeUInt32LE(0xffffffff, 16);
  writeFileSync(out, Buffer.concat([...chunks, directory, end64, locator, end]));
}
