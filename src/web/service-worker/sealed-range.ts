import {
  contentRange,
  parseRange,
  segmentOfPlaintextByte,
  segmentPlaintextStart,
} from '@shared/sealing';

/**
 * The most one reply carries for an open-ended `bytes=a-` (Chromium asks for the rest of the file
 * each time): the element asks again for more, so a seek never opens the whole remainder.
 */
export const MAX_REPLY_BYTES = 8 * 1024 * 1024;
/**
 * Sealed segments asked of the store in one request (2 MiB). A reply is fetched a window at a
 * time, as the player reads it, so the bytes fetched follow the bytes played.
 */
export const WINDOW_SEGMENTS = 8;

export type TPlaintextRange = { first: number; last: number };

export type TReplyPlan =
  | { status: 200 | 206; range: TPlaintextRange | null; headers: Record<string, string> }
  | { status: 416; headers: Record<string, string> };

/**
 * How to answer the player's `Range` header for a message of `plaintextLength` bytes: 206 with the
 * bytes asked for (an open end capped), 200 with the whole message when no range is readable,
 * 416 when the range lies outside it. Opened bytes are never stored by the browser's cache.
 */
export function planReply(
  rangeHeader: string | null,
  plaintextLength: number,
  mimeType: string,
): TReplyPlan {
  const common = { 'accept-ranges': 'bytes', 'cache-control': 'no-store' };
  const answer = parseRange(rangeHeader, plaintextLength, MAX_REPLY_BYTES);
  if (answer.kind === 'unsatisfiable') {
    return { status: 416, headers: { ...common, 'content-range': contentRange(plaintextLength) } };
  }
  const withBody = { ...common, 'content-type': mimeType };
  if (answer.kind === 'whole') {
    const range = plaintextLength === 0 ? null : { first: 0, last: plaintextLength - 1 };
    return {
      status: 200,
      range,
      headers: { ...withBody, 'content-length': String(plaintextLength) },
    };
  }
  const range = { first: answer.first, last: answer.last };
  return {
    status: 206,
    range,
    headers: {
      ...withBody,
      'content-length': String(range.last - range.first + 1),
      'content-range': contentRange(plaintextLength, range),
    },
  };
}

/**
 * The range cut at segment boundaries into windows of at most `windowSegments` segments: each is
 * one request to the store, for exactly the sealed segments that hold it.
 */
export function fetchWindows(
  range: TPlaintextRange,
  windowSegments = WINDOW_SEGMENTS,
): TPlaintextRange[] {
  const windows: TPlaintextRange[] = [];
  for (let first = range.first; first <= range.last;) {
    const nextWindow = segmentOfPlaintextByte(first) + windowSegments;
    const last = Math.min(segmentPlaintextStart(nextWindow) - 1, range.last);
    windows.push({ first, last });
    first = last + 1;
  }
  return windows;
}

/** The `Range` header asking the store for sealed bytes [start, end). */
export function sealedRangeHeader(start: number, end: number): string {
  return `bytes=${start}-${end - 1}`;
}
