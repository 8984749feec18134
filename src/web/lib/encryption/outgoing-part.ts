import { releaseBytes, sha256HexOfBytes } from '@web/lib/sha256';

/**
 * A sealed part as the body of its upload. Where the browser offers the site a private folder
 * (the origin private file system), the part is written to a file there and sent from it, then
 * removed once it has arrived. A Blob made from the page's bytes lives in the browser's own memory
 * until the page's next garbage collection, which nothing hurries (the page holds only a handle),
 * so the sent parts of a long copy piled up there, about the copy's size. A file is read from disk
 * as it goes. Elsewhere (no private folder, or it is full), a Blob, as before.
 *
 * Not a buffer: sent as the page's bytes, a part took longer than from its file even with no
 * inspector attached, and seconds longer with one (docs/benchmarks.md, 'Uploads timed as a
 * visitor's browser runs them').
 */
export interface TOutgoingPart {
  body: Blob;
  /** Removes the part's file, if it has one; call once the part has arrived (or failed for good). */
  discard: () => Promise<void>;
}

/** A part written out and hashed, ready to send. */
export interface TWrittenPart {
  sha256: string;
  body: TOutgoingPart;
}

/** What the page asks of the part writer (outgoing-part.worker.ts). */
export interface TPartWriteRequest {
  id: number;
  folder: string;
  name: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/** The writer's answer: the bytes always come back; no file when it could not write one. */
export type TPartWriteReply = { id: number; bytes: Uint8Array<ArrayBuffer> } & (
  { file: File; sha256: string } | { file: null }
);

/** The part writer stopped with a part's bytes in hand: they are gone, to be sealed again. */
export class PartBytesLostError extends Error {}

const FOLDER = 'outgoing-parts';
/** A file this old was left by a tab closed while it sent: no upload still reads it. */
const STALE_MS = 60 * 60 * 1000;

/** Found once a page, not asked for again with every part. */
let found: FileSystemDirectoryHandle | null = null;

/** The folder; its first use in a page also clears what a tab closed mid-send left there. */
async function folder(): Promise<FileSystemDirectoryHandle | null> {
  if (found) return found;
  try {
    const root = await navigator.storage.getDirectory();
    const dir = await root.getDirectoryHandle(FOLDER, { create: true });
    if (!found) {
      const now = Date.now();
      void removeFiles(dir, async (_, file) => now - (await file()).lastModified > STALE_MS);
    }
    found = dir;
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

/** Stopped once it sat idle this long: a send asks for its next part within a second. */
const WRITER_IDLE_MS = 30_000;

/**
 * The part writer, a worker of the page's own: started on the first part, stopped when idle. A
 * browser without such workers (a service worker sending in the background), or whose writer
 * failed once, has parts written in the page.
 */
const writer = {
  worker: null as Worker | null,
  isUnusable: typeof Worker === 'undefined',
  nextId: 1,
  pending: new Map<
    number,
    { resolve: (reply: TPartWriteReply) => void; reject: (error: Error) => void }
  >(),
  idle: undefined as ReturnType<typeof setTimeout> | undefined,
};

/** Ends the writer; the parts it still held are lost to their senders, to be sealed again. */
function stopWriter() {
  writer.worker?.terminate();
  writer.worker = null;
  for (const job of writer.pending.values()) {
    job.reject(new PartBytesLostError('the part writer stopped'));
  }
  writer.pending.clear();
}

/** The running writer, started if need be; null where none can start. */
function startWriter(): Worker | null {
  if (writer.worker || writer.isUnusable) return writer.worker;
  let worker: Worker;
  try {
    // Served from our own origin, so the content security policy needs nothing new.
    worker = new Worker(new URL('./outgoing-part.worker.ts', import.meta.url), {
      type: 'module',
    });
  } catch {
    writer.isUnusable = true;
    return null;
  }
  worker.addEventListener('message', (event: MessageEvent<TPartWriteReply>) => {
    const job = writer.pending.get(event.data.id);
    writer.pending.delete(event.data.id);
    job?.resolve(event.data);
    if (writer.pending.size === 0) {
      clearTimeout(writer.idle);
      writer.idle = setTimeout(() => {
        if (writer.pending.size === 0) stopWriter();
      }, WRITER_IDLE_MS);
    }
  });
  worker.addEventListener('error', (event) => {
    // It would not start (an older browser) or broke: the page writes from now on.
    event.preventDefault();
    writer.isUnusable = true;
    stopWriter();
  });
  writer.worker = worker;
  return worker;
}

/** The bytes handed to the writer (not copied): they come back in its reply. */
function writeInWorker(
  worker: Worker,
  name: string,
  bytes: Uint8Array<ArrayBuffer>,
): Promise<TPartWriteReply> {
  clearTimeout(writer.idle);
  const id = writer.nextId++;
  return new Promise((resolve, reject) => {
    writer.pending.set(id, { resolve, reject });
    const request: TPartWriteRequest = { id, folder: FOLDER, name, bytes };
    worker.postMessage(request, [bytes.buffer]);
  });
}

/** Written and hashed in the page: a file where it can, else a Blob. */
async function writeInPage(name: string, bytes: Uint8Array<ArrayBuffer>): Promise<TWrittenPart> {
  const sha256 = await sha256HexOfBytes(bytes);
  const dir = await folder();
  const file = dir ? await writeFile(dir, name, bytes) : null;
  return {
    sha256,
    body: file ?? {
      body: new Blob([bytes], { type: 'application/octet-stream' }),
      discard: () => Promise.resolve(),
    },
  };
}

/**
 * A sealed part written out for sending, with its SHA-256. The bytes are used up: written by the
 * part writer where there is one, else here, then given back to the browser. Throws
 * PartBytesLostError when the writer stopped while it held them.
 */
export async function outgoingPart(
  part: { videoId: string; partNumber: number },
  bytes: Uint8Array<ArrayBuffer>,
): Promise<TWrittenPart> {
  const name = fileName(part.videoId, part.partNumber);
  const worker = startWriter();
  if (!worker) {
    const written = await writeInPage(name, bytes);
    releaseBytes(bytes);
    return written;
  }
  const reply = await writeInWorker(worker, name, bytes);
  const dir = await folder();
  if (!reply.file) {
    // No file there (no synchronous handles, the folder full): the page writes this part and the
    // next ones, as it did before the writer; whatever the writer began goes.
    writer.isUnusable = true;
    await dir?.removeEntry(name).catch(() => undefined);
    return outgoingPart(part, reply.bytes);
  }
  releaseBytes(reply.bytes);
  return {
    sha256: reply.sha256,
    body: {
      body: reply.file,
      discard: () => dir?.removeEntry(name).catch(() => undefined) ?? Promise.resolve(),
    },
  };
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
