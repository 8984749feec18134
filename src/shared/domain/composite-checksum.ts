/**
 * The checksum of a sealed copy sent while it is sealed (docs/decisions/078-sealing-while-sending.md):
 * SHA-256 over the parts' SHA-256 digests (32 bytes each, in part order), as S3 checks a multipart
 * object. No one holds the whole sealed copy at once to hash it; each part is hashed as it goes.
 * Each side hashes these bytes with its own SHA-256 (WebCrypto in the page, node:crypto on the
 * server); this is the one definition of what is hashed.
 */
export function compositeChecksumInput(partSha256s: readonly string[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(32 * partSha256s.length);
  partSha256s.forEach((hex, part) => {
    if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error('a part checksum is not a SHA-256 in hex');
    for (let i = 0; i < 32; i += 1) out[part * 32 + i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  });
  return out;
}
