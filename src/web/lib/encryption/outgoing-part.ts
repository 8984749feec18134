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

let isStaleCleared = false;

/** The folder; its first use in a page also clears what a tab closed mid-send left there. */
async function folder(): Promise<FileSystemDirectoryHandle | null> {
  try {
    const root = await navigator.storage.getDirectory();
    const dir = await root.getDirectoryHandle(FOLDER, { create: true });
    if (!isStaleCleared) {
      isStaleCleared = true;
      const now = Date.now();
      void removeFiles(dir, async (_, file) => now - (await file()).lastModified > STALE_MS);
    }
    return dir;
  } catch {
    return null;
  }
}

/** A part's file is named by its message first, so deleting a message can find its parts. */
const fileName = (videoId: string, partNumber: number) =>
  `${videoId}.${partNumber}.${crypto.randomUUID()}`;

async function writeFile(
  dir: FileSystemDirectoryHandle,
  name: string,
  bytes: Uint8Array<ArrayBuffer>,
): Promise<TOutgoingPart | null> {
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

export async function outgoingPart(
  part: { videoId: string; partNumber: number },
  bytes: Uint8Array<ArrayBuffer>,
): Promise<TOutgoingPart> {
  const dir = await folder();
  const file = dir ? await writeFile(dir, fileName(part.videoId, part.partNumber), bytes) : null;
  return (
    file ?? {
      body: new Blob([bytes], { type: 'application/octet-stream' }),
      discard: () => Promise.resolve(),
    }
  );
}

/** Removes each file `isDone` says no upload reads any more. */
async function removeFiles(
  dir: FileSystemDirectoryHandle,
  isDone: (name: string, file: () => Promise<File>) => Promise<boolean>,
) {
  try {
    for await (const [name, handle] of dir.entries()) {
      if (handle.kind !== 'file') continue;
      const file = () => (handle as FileSystemFileHandle).getFile();
      if (await isDone(name, file)) await dir.removeEntry(name).catch(() => undefined);
    }
  } catch {
    // Left for the next time: a file that vanished meanwhile, a folder being cleared elsewhere.
  }
}

/** Removes the part files of deleted messages: what is deleted goes from everywhere it was. */
export async function discardOutgoingParts(videoIds: readonly string[]): Promise<void> {
  const dir = await folder();
  if (!dir) return;
  const prefixes = videoIds.map((id) => `${id}.`);
  await removeFiles(dir, (name) =>
    Promise.resolve(prefixes.some((prefix) => name.startsWith(prefix))),
  );
}
