/**
 * What crosses the data channel: a clear header (which message, which video, which chunk) and
 * its body sealed with AES-GCM under the code's key, the header being the associated data, so a
 * chunk cannot be passed off as another video's or another place's.
 */

/** The old device's list: what each message is, and how to check it. */
export interface TManifestVideo {
  id: string;
  recipientId: number;
  title: string;
  promptId: string | null;
  mimeType: string;
  byteSize: number;
  durationMs: number;
  createdAt: string;
  indexedAt: string | null;
  release?: unknown;
  /** The SHA-256 of each piece of the message (PIECE_BYTES each, the last one shorter), in order. */
  pieceSha256: string[];
  chunkCount: number;
}

export type TFrameHeader =
  /** Part `i` of `n` of the manifest's JSON: a large library's list outgrows one message. */
  | { t: 'manifest'; i: number; n: number }
  | { t: 'want' }
  | { t: 'chunk'; v: string; i: number }
  /** The new device has kept `n` of the chunks asked for: the old one may send more. */
  | { t: 'got' }
  | { t: 'end' }
  | { t: 'done' };

/** Small enough for every browser's data channel messages. */
export const TRANSFER_CHUNK_BYTES = 60 * 1024;
/**
 * A message is checked piece by piece, never read whole: a tablet holds one piece (under 1 MiB)
 * to check it, however long the message.
 */
export const PIECE_CHUNKS = 16;
export const PIECE_BYTES = TRANSFER_CHUNK_BYTES * PIECE_CHUNKS;
/**
 * The old device sends at most this many chunks ahead of what the new one says it kept: a data
 * channel cannot be paused, so a slower new device would otherwise queue the rest in memory.
 */
export const SEND_WINDOW_CHUNKS = 4 * PIECE_CHUNKS;
const IV_BYTES = 12;

export async function sealFrame(
  key: CryptoKey,
  header: TFrameHeader,
  body: Uint8Array<ArrayBuffer>,
): Promise<ArrayBuffer> {
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: headerBytes }, key, body),
  );
  const frame = new Uint8Array(2 + headerBytes.length + IV_BYTES + sealed.length);
  new DataView(frame.buffer).setUint16(0, headerBytes.length);
  frame.set(headerBytes, 2);
  frame.set(iv, 2 + headerBytes.length);
  frame.set(sealed, 2 + headerBytes.length + IV_BYTES);
  return frame.buffer;
}

/** Opens a frame; a frame that was changed on the way, or sealed under another key, throws. */
export async function openFrame(
  key: CryptoKey,
  data: ArrayBuffer,
): Promise<{ header: TFrameHeader; body: Uint8Array<ArrayBuffer> }> {
  const headerLength = new DataView(data).getUint16(0);
  const headerBytes = new Uint8Array(data, 2, headerLength);
  const iv = new Uint8Array(data, 2 + headerLength, IV_BYTES);
  const sealed = new Uint8Array(data, 2 + headerLength + IV_BYTES);
  const body = new Uint8Array(
    await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv, additionalData: headerBytes.slice() },
      key,
      sealed,
    ),
  );
  return { header: JSON.parse(new TextDecoder().decode(headerBytes)) as TFrameHeader, body };
}

export function sealJson(key: CryptoKey, header: TFrameHeader, value: unknown) {
  return sealFrame(key, header, new TextEncoder().encode(JSON.stringify(value)));
}

export function readJson<T>(body: Uint8Array<ArrayBuffer>): T {
  return JSON.parse(new TextDecoder().decode(body)) as T;
}

/** The manifest as frames of at most one chunk's size each. */
export async function sealManifest(
  key: CryptoKey,
  manifest: readonly TManifestVideo[],
): Promise<ArrayBuffer[]> {
  const bytes = new TextEncoder().encode(JSON.stringify(manifest));
  const n = Math.max(1, Math.ceil(bytes.length / TRANSFER_CHUNK_BYTES));
  const frames: ArrayBuffer[] = [];
  for (let i = 0; i < n; i += 1) {
    const part = bytes.slice(i * TRANSFER_CHUNK_BYTES, (i + 1) * TRANSFER_CHUNK_BYTES);
    frames.push(await sealFrame(key, { t: 'manifest', i, n }, part));
  }
  return frames;
}
