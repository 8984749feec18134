import { sha256HexOfBytes } from '@web/lib/sha256';
import { BACKUP_MESSAGES, BackupError } from './backup-manifest';
import { updateCrc32 } from './crc32';

/**
 * A video's SHA-256, or the backup's own message where the page is not on a secure connection
 * (WebCrypto is missing there). The hash needs one whole buffer, so one video is in memory at a
 * time; that bounds memory by the largest video, not the whole backup.
 */
export async function hashBytes(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  if (!globalThis.crypto?.subtle) {
    throw new BackupError('no_secure_connection', BACKUP_MESSAGES.noSecureConnection);
  }
  return sha256HexOfBytes(bytes);
}

/** A video read whole, with what the backup records of it. */
export interface TMeasuredVideo {
  /** Null when the caller writes the video's own Blob and needs only its measures. */
  bytes: Uint8Array<ArrayBuffer> | null;
  byteSize: number;
  sha256: string;
  /** Only when the entry is stored plain; a sealed entry records none. */
  crc32: number | null;
}

/**
 * Reads a video whole and takes its SHA-256 and, for a plain entry, its CRC-32. A plain entry is
 * written from the video's own Blob, so its bytes are dropped here rather than handed on.
 */
export async function measureBlob(blob: Blob, isPlain: boolean): Promise<TMeasuredVideo> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  const sha256 = await hashBytes(bytes);
  if (!isPlain) return { bytes, byteSize: bytes.length, sha256, crc32: null };
  // Read from a Blob: dropped, never emptied (see releaseBytes).
  return { bytes: null, byteSize: bytes.length, sha256, crc32: updateCrc32(0, bytes) };
}
