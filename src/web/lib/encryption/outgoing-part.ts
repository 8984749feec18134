/**
 * A sealed part as the body of its upload. Where the browser offers the site a private folder
 * (the origin private file system), the part is written to a file there and sent from it, then
 * removed once it has arrived. A Blob made from the page's bytes lives in the browser's own memory
 * until the page's next garbage collection, which nothing hurries (the page holds only a handle),
 * so the sent parts of a long copy piled up there, about the copy's size. A file is read from disk
 * as it goes. Elsewhere (no private folder, or it is full), a Blob, as before.
 *
 * Not a buffer: the page's bytes as a fetch body are copied whole to any attached inspector,
 * seconds a part.
 */
export interface TOutgoingPart {
  body: Blob;
  /** Removes the part's file, if it has one; call once the part has arrived (or failed for good). */
  discard: () => Promise<void>;
}

const FOLDER = 'outgoing-parts';
/** A file this old was left by a tab closed while it sent: no upload still reads it. */
const STALE_MS = 60 * 60 * 1000;

async function folder(): Promise<FileSystemDirectoryHandle | null> {
  try {
    const root = await navigator.storage.getDirectory();
    return await root.getDirectoryHandle(FOLDER, { create: true });
  } catch {
    return null;
  }
}

async function writeFile(
  dir: FileSystemDirectoryHandle,
  bytes: Uint8Array<ArrayBuffer>,
): Promise<TOutgoingPart | null> {
  const name = crypto.randomUUID();
  const discard = () => dir.removeEntry(name).catch(() => undefined);
  try {
    const handle = await dir.getFileHandle(name, { create: true });
    const writable = await handle.createWritable();
    await writable.write(bytes);
    await writable.close();
    return { body: await handle.getFile(), discard };
  } catch {
    await discard();
    return null;
  }
}

export async function outgoingPart(bytes: Uint8Array<ArrayBuffer>): Promise<TOutgoingPart> {
  const dir = await folder();
  const file = dir ? await writeFile(dir, bytes) : null;
  return (
    file ?? {
      body: new Blob([bytes], { type: 'application/octet-stream' }),
      discard: () => Promise.resolve(),
    }
  );
}

/** Removes the files a tab closed while sending left behind. */
export async function clearStaleOutgoingParts(): Promise<void> {
  const dir = await folder();
  if (!dir) return;
  const now = Date.now();
  try {
    for await (const [name, handle] of dir.entries()) {
      if (handle.kind !== 'file') continue;
      const file = await (handle as FileSystemFileHandle).getFile();
      if (now - file.lastModified > STALE_MS) await dir.removeEntry(name).catch(() => undefined);
    }
  } catch {
    // Left for the next time: a file that vanished meanwhile, a folder being cleared elsewhere.
  }
}
