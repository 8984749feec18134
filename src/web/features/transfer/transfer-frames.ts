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
  sha256: string;
  chunkCount: number;
}

export type TFrameHeader =
  | { t: 'manifest' }
  | { t: 'want' }
  | { t: 'chunk'; v: string; i: number }
  | { t: 'end' }
  | { t: 'done' };

/** Small enough for every browser's data channel messages. */
export const TRANSFER_CHUNK_BYTES = 60 * 1024;
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
