/**
 * CRC-32 (the zip one), slice-by-16: sixteen 256-entry tables let the loop take four aligned
 * 32-bit words at a time. The backup takes it beside the SHA-256, for the stored-entry writer's
 * headers.
 */
const TABLES = new Int32Array(16 * 256);
for (let byte = 0; byte < 256; byte += 1) {
  let crc = byte;
  for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  TABLES[byte] = crc;
}
for (let byte = 0; byte < 256; byte += 1) {
  for (let table = 1; table < 16; table += 1) {
    const previous = TABLES[(table - 1) * 256 + byte]!;
    TABLES[table * 256 + byte] = (previous >>> 8) ^ TABLES[previous & 0xff]!;
  }
}

/** Continues `crc` (start with 0) over `bytes`; returns the CRC-32 as an unsigned number. */
export function updateCrc32(crc: number, bytes: Uint8Array): number {
  const t = TABLES;
  let c = ~crc | 0;
  let at = 0;
  // Bytes one by one up to a 4-byte boundary, so the words below can be read as an Int32Array
  // (little-endian, as every browser's platform is).
  while (at < bytes.length && (bytes.byteOffset + at) % 4 !== 0) {
    c = (c >>> 8) ^ t[(c ^ bytes[at]!) & 0xff]!;
    at += 1;
  }
  if (at === bytes.length) return ~c >>> 0;
  const words = new Int32Array(bytes.buffer, bytes.byteOffset + at, (bytes.length - at) >>> 2);
  const end = words.length - (words.length % 4);
  for (let w = 0; w < end; w += 4) {
    const a = c ^ words[w]!;
    const b = words[w + 1]!;
    const d = words[w + 2]!;
    const e = words[w + 3]!;
    c =
      t[3840 + (a & 0xff)]! ^
      t[3584 + ((a >>> 8) & 0xff)]! ^
      t[3328 + ((a >>> 16) & 0xff)]! ^
      t[3072 + (a >>> 24)]! ^
      t[2816 + (b & 0xff)]! ^
      t[2560 + ((b >>> 8) & 0xff)]! ^
      t[2304 + ((b >>> 16) & 0xff)]! ^
      t[2048 + (b >>> 24)]! ^
      t[1792 + (d & 0xff)]! ^
      t[1536 + ((d >>> 8) & 0xff)]! ^
      t[1280 + ((d >>> 16) & 0xff)]! ^
      t[1024 + (d >>> 24)]! ^
      t[768 + (e & 0xff)]! ^
      t[512 + ((e >>> 8) & 0xff)]! ^
      t[256 + ((e >>> 16) & 0xff)]! ^
      t[e >>> 24]!;
  }
  at += end * 4;
  for (; at < bytes.length; at += 1) c = (c >>> 8) ^ t[(c ^ bytes[at]!) & 0xff]!;
  return ~c >>> 0;
}
