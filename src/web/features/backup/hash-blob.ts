import { BACKUP_MESSAGES, BackupError } from './backup-manifest';

/**
 * SHA-256 as lower-case hex, with WebCrypto. WebCrypto hashes one buffer, so one video is in
 * memory at a time; that bounds memory by the largest video, not the whole backup.
 */
export async function hashBytes(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  // crypto.subtle exists only in a secure context (https or localhost).
  if (!globalThis.crypto?.subtle) {
    throw new BackupError('no_secure_connection', BACKUP_MESSAGES.noSecureConnection);
  }
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export async function hashBlob(blob: Blob): Promise<string> {
  return hashBytes(new Uint8Array(await blob.arrayBuffer()));
}
