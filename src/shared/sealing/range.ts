/**
 * The `Range` header a <video> element sends, read against the message's plaintext length. The
 * service worker answers 206 with the bytes asked for, or the whole message when there is no
 * (readable) range, as HTTP lets a server do.
 */
export type TRangeAnswer =
  { kind: 'whole' } | { kind: 'part'; first: number; last: number } | { kind: 'unsatisfiable' };

/**
 * `maxSpan` bounds an open-ended `bytes=a-` (Chromium asks for the rest of the file each time):
 * the element asks again for more, so a seek never decrypts the whole remainder.
 */
export function parseRange(value: string | null, length: number, maxSpan = Infinity): TRangeAnswer {
  const match = /^bytes=(\d*)-(\d*)$/.exec(value?.trim() ?? '');
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'whole' };
  const [, from = '', to = ''] = match;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0 || length === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', first: Math.max(0, length - suffix), last: length - 1 };
  }
  const first = Number(from);
  if (first >= length) return { kind: 'unsatisfiable' };
  const asked = to === '' ? first + maxSpan - 1 : Number(to);
  if (asked < first) return { kind: 'whole' };
  return { kind: 'part', first, last: Math.min(asked, length - 1) };
}

/** The `Content-Range` value of a 206 answer, or of a 416 answer when no range is given. */
export function contentRange(length: number, range?: { first: number; last: number }): string {
  return range ? `bytes ${range.first}-${range.last}/${length}` : `bytes */${length}`;
}
