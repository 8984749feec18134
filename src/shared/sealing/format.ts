import { bytesToUuid, concatBytes, type TBytes, utf8, uuidToBytes } from './bytes';
import { SealingError } from './errors';

/**
 * The sealed message format, version 1. A sealed object is a 40-byte header followed by
 * AES-256-GCM segments. Every sealed segment takes exactly 256 KiB of the object (the first one
 * shares its 256 KiB with the header, so it carries 40 plaintext bytes fewer), and only the last
 * may be shorter. Segment boundaries therefore fall on multiples of 256 KiB, and an 8 MiB upload
 * part holds exactly 32 whole segments.
 *
 * Header: 'MMSV' ‖ version ‖ log2(segment size) ‖ 2 zero bytes ‖ message id (16) ‖
 * nonce prefix (7) ‖ zero byte ‖ plaintext length (8, big-endian).
 * Nonce of segment i: nonce prefix ‖ i (4, big-endian) ‖ 1 if last else 0.
 * Associated data of segment i: the whole header ‖ i (4, big-endian) ‖ 1 if last else 0, so a
 * changed header, a moved, dropped or foreign segment, or a cut after any segment fails its tag.
 */
export const SEALED_FORMAT_VERSION = 1;
export const SEALED_SEGMENT_BYTES = 256 * 1024;
export const TAG_BYTES = 16;
export const HEADER_BYTES = 40;
export const NONCE_PREFIX_BYTES = 7;
/** Plaintext bytes in a full segment other than the first. */
export const SEGMENT_PLAINTEXT_BYTES = SEALED_SEGMENT_BYTES - TAG_BYTES;
/** Plaintext bytes in a full first segment, which shares its space with the header. */
export const FIRST_SEGMENT_PLAINTEXT_BYTES = SEGMENT_PLAINTEXT_BYTES - HEADER_BYTES;
/** The served type of every sealed object: never playable or renderable from our origin. */
export const SEALED_MEDIA_TYPE = 'application/octet-stream';

const MAGIC = utf8('MMSV');
const LOG2_SEGMENT = 18;
const MAX_SEGMENTS = 2 ** 32;

export type TSealedHeader = {
  messageId: string;
  noncePrefix: TBytes;
  plaintextLength: number;
  /** The header exactly as stored: it is authenticated with every segment. */
  bytes: TBytes;
};

export function segmentCount(plaintextLength: number): number {
  if (plaintextLength <= FIRST_SEGMENT_PLAINTEXT_BYTES) return 1;
  return 1 + Math.ceil((plaintextLength - FIRST_SEGMENT_PLAINTEXT_BYTES) / SEGMENT_PLAINTEXT_BYTES);
}

export function sealedSize(plaintextLength: number): number {
  return HEADER_BYTES + plaintextLength + TAG_BYTES * segmentCount(plaintextLength);
}

/** The plaintext length a sealed object of this size holds, or undefined if no length fits. */
export function plaintextLengthOf(sealedBytes: number): number | undefined {
  const segments = Math.ceil(sealedBytes / SEALED_SEGMENT_BYTES);
  const length = sealedBytes - HEADER_BYTES - TAG_BYTES * Math.max(segments, 1);
  return length >= 0 && sealedSize(length) === sealedBytes ? length : undefined;
}

export function segmentPlaintextStart(index: number): number {
  return index === 0 ? 0 : FIRST_SEGMENT_PLAINTEXT_BYTES + (index - 1) * SEGMENT_PLAINTEXT_BYTES;
}

/** The plaintext bytes [start, end) that segment `index` of a message of this length carries. */
export function segmentPlaintextRange(index: number, plaintextLength: number) {
  const start = segmentPlaintextStart(index);
  const room = index === 0 ? FIRST_SEGMENT_PLAINTEXT_BYTES : SEGMENT_PLAINTEXT_BYTES;
  return { start, end: Math.min(start + room, plaintextLength) };
}

/** Where segment `index` (ciphertext and tag, without the header) lies in the sealed object. */
export function segmentSealedRange(index: number, plaintextLength: number) {
  const plain = segmentPlaintextRange(index, plaintextLength);
  const start = index === 0 ? HEADER_BYTES : index * SEALED_SEGMENT_BYTES;
  return { start, end: start + plain.end - plain.start + TAG_BYTES };
}

export function segmentOfPlaintextByte(position: number): number {
  if (position < FIRST_SEGMENT_PLAINTEXT_BYTES) return 0;
  return 1 + Math.floor((position - FIRST_SEGMENT_PLAINTEXT_BYTES) / SEGMENT_PLAINTEXT_BYTES);
}

/**
 * The segments, and the sealed bytes [start, end) holding them, needed for the plaintext bytes
 * `first`…`last` (inclusive, as HTTP ranges count): a seek fetches only these.
 */
export function sealedRangeFor(first: number, last: number, plaintextLength: number) {
  if (!(Number.isInteger(first) && Number.isInteger(last) && 0 <= first && first <= last)) {
    throw new SealingError('range', 'This part of the message does not exist.');
  }
  if (last >= plaintextLength) {
    throw new SealingError('range', 'This part of the message does not exist.');
  }
  const firstSegment = segmentOfPlaintextByte(first);
  const lastSegment = segmentOfPlaintextByte(last);
  return {
    firstSegment,
    lastSegment,
    start: segmentSealedRange(firstSegment, plaintextLength).start,
    end: segmentSealedRange(lastSegment, plaintextLength).end,
  };
}

/** How many segments one upload part holds; parts must hold whole segments. */
export function segmentsPerPart(partBytes: number): number {
  if (!Number.isInteger(partBytes) || partBytes <= 0 || partBytes % SEALED_SEGMENT_BYTES !== 0) {
    throw new SealingError('range', 'An upload part must hold whole sealed segments.');
  }
  return partBytes / SEALED_SEGMENT_BYTES;
}

export function partCount(plaintextLength: number, partBytes: number): number {
  segmentsPerPart(partBytes);
  return Math.ceil(sealedSize(plaintextLength) / partBytes);
}

/** The segments `first`…`last` that 1-based part `partNumber` holds. */
export function partSegments(partNumber: number, plaintextLength: number, partBytes: number) {
  const perPart = segmentsPerPart(partBytes);
  const lastSegment = segmentCount(plaintextLength) - 1;
  const first = (partNumber - 1) * perPart;
  if (!Number.isInteger(partNumber) || partNumber < 1 || first > lastSegment) {
    throw new SealingError('range', 'This upload part does not exist.');
  }
  return { first, last: Math.min(first + perPart - 1, lastSegment) };
}

export function encodeHeader(fields: {
  messageId: string;
  noncePrefix: Uint8Array;
  plaintextLength: number;
}): TSealedHeader {
  const id = uuidToBytes(fields.messageId);
  if (!id) throw new SealingError('header', 'A sealed message needs its message id.');
  if (fields.noncePrefix.length !== NONCE_PREFIX_BYTES) {
    throw new SealingError('header', 'The nonce prefix has the wrong length.');
  }
  if (!isPlaintextLength(fields.plaintextLength)) {
    throw new SealingError('header', 'This message is too large to seal.');
  }
  const bytes = new Uint8Array(HEADER_BYTES);
  bytes.set(MAGIC, 0);
  bytes[4] = SEALED_FORMAT_VERSION;
  bytes[5] = LOG2_SEGMENT;
  bytes.set(id, 8);
  bytes.set(fields.noncePrefix, 24);
  new DataView(bytes.buffer).setBigUint64(32, BigInt(fields.plaintextLength));
  return { ...fields, messageId: bytesToUuid(id), noncePrefix: bytes.slice(24, 31), bytes };
}

/** Reads a header; a check of its authenticity comes with the first segment opened. */
export function parseHeader(input: Uint8Array, expectedMessageId?: string): TSealedHeader {
  const bytes = input.slice(0, HEADER_BYTES);
  const view = new DataView(bytes.buffer);
  const isOurs =
    bytes.length === HEADER_BYTES &&
    MAGIC.every((byte, i) => bytes[i] === byte) &&
    bytes[4] === SEALED_FORMAT_VERSION &&
    bytes[5] === LOG2_SEGMENT &&
    view.getUint16(6) === 0 &&
    bytes[31] === 0;
  if (!isOurs) {
    throw new SealingError('header', 'This is not a sealed message this app can open.');
  }
  const plaintextLength = Number(view.getBigUint64(32));
  if (!isPlaintextLength(plaintextLength)) {
    throw new SealingError('header', 'This sealed message has an impossible length.');
  }
  const messageId = bytesToUuid(bytes.subarray(8, 24));
  if (expectedMessageId !== undefined && messageId !== expectedMessageId.toLowerCase()) {
    throw new SealingError('wrong-message', 'This sealed object belongs to another message.');
  }
  return { messageId, noncePrefix: bytes.slice(24, 31), plaintextLength, bytes };
}

function isPlaintextLength(length: number): boolean {
  return Number.isSafeInteger(length) && length >= 0 && segmentCount(length) <= MAX_SEGMENTS;
}

/** The nonce and associated data of one segment (see the format above). */
export function segmentParameters(header: TSealedHeader, index: number) {
  const isLast = index === segmentCount(header.plaintextLength) - 1;
  const position = new Uint8Array(5);
  new DataView(position.buffer).setUint32(0, index);
  position[4] = isLast ? 1 : 0;
  return {
    name: 'AES-GCM',
    iv: concatBytes(header.noncePrefix, position),
    additionalData: concatBytes(header.bytes, position),
    tagLength: TAG_BYTES * 8,
  } satisfies AesGcmParams;
}
