import { sha256HexOfBytes } from '@web/lib/sha256';
import type { TPartWriteReply, TPartWriteRequest } from './outgoing-part';

/**
 * Writes a sealed part to its file in the site's private folder and hashes it, away from the
 * page. Only a worker may write a file synchronously: several times faster than the page's own
 * writer, and the page's thread is left to seal the next part. The bytes are handed back in every
 * reply, written or not, for the page to free (or to write itself).
 */

/** The synchronous handle, which TypeScript's page library does not describe. */
interface TSyncAccessHandle {
  truncate(size: number): void;
  write(bytes: Uint8Array<ArrayBuffer>, options: { at: number }): number;
  close(): void;
}
type TWorkerFileHandle = FileSystemFileHandle & {
  createSyncAccessHandle(): Promise<TSyncAccessHandle>;
};

// The DOM library types `self` as a window; in here it is the worker's own scope.
const post = (reply: TPartWriteReply) =>
  (self as unknown as Worker).postMessage(reply, [reply.bytes.buffer]);

/** Found on the first part, not asked for again with every part. */
let found: Promise<FileSystemDirectoryHandle> | null = null;

async function writeFile(request: TPartWriteRequest): Promise<File> {
  found ??= navigator.storage
    .getDirectory()
    .then((root) => root.getDirectoryHandle(request.folder, { create: true }))
    .catch((error: unknown) => {
      // Not kept: the next part asks again.
      found = null;
      throw error;
    });
  const folder = await found;
  const handle = (await folder.getFileHandle(request.name, { create: true })) as TWorkerFileHandle;
  const access = await handle.createSyncAccessHandle();
  try {
    access.truncate(0);
    if (access.write(request.bytes, { at: 0 }) !== request.bytes.length) {
      throw new Error('the part was not written whole');
    }
  } finally {
    access.close();
  }
  return handle.getFile();
}

self.addEventListener('message', (event: MessageEvent<TPartWriteRequest>) => {
  const request = event.data;
  // Hashed while the file is written: WebCrypto works on its own thread.
  const hashed = sha256HexOfBytes(request.bytes);
  Promise.all([writeFile(request), hashed]).then(
    ([file, sha256]) => post({ id: request.id, bytes: request.bytes, file, sha256 }),
    // The page writes it its own way; a file begun here is the page's to remove.
    () => post({ id: request.id, bytes: request.bytes, file: null }),
  );
});
