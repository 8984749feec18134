import { UPLOAD_PART_BYTES } from '@shared/schemas/cloud-messages';
import { compositeSha256Hex, sha256Hex, sha256HexOfBytes } from './sha256';

/**
 * Whether a copy's bytes are the cloud copy the server recorded `sha256` for. A copy sent part by
 * part is known by its parts' composite checksum (SHA-256 over each 8 MiB part's digest); one sent
 * before that, by its whole SHA-256. The composite is tried first, a part at a time.
 */
export async function matchesCopyChecksum(
  copy: Blob | Uint8Array<ArrayBuffer>,
  sha256: string,
): Promise<boolean> {
  const size = copy instanceof Blob ? copy.size : copy.length;
  const part = (start: number) =>
    copy instanceof Blob
      ? sha256Hex(copy.slice(start, start + UPLOAD_PART_BYTES))
      : sha256HexOfBytes(copy.subarray(start, start + UPLOAD_PART_BYTES));
  const sums: string[] = [];
  for (let start = 0; start < size || sums.length === 0; start += UPLOAD_PART_BYTES) {
    sums.push(await part(start));
  }
  if ((await compositeSha256Hex(sums)) === sha256) return true;
  return (copy instanceof Blob ? await sha256Hex(copy) : await sha256HexOfBytes(copy)) === sha256;
}
