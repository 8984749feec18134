import { sha256Hex } from './sha256';

/**
 * The SHA-256 of each part of a recording, computed once and only when the store checks them (S3
 * mode binds each part's link to its checksum): part n is `get(n)`.
 */
export function partChecksums(blob: Blob, partSize: number, isNeeded: boolean) {
  let all: Promise<string[]> | null = null;
  const compute = async () => {
    const sums: string[] = [];
    // One part at a time, so a long recording is never held twice in memory.
    for (let start = 0; start < blob.size || sums.length === 0; start += partSize) {
      sums.push(await sha256Hex(blob.slice(start, start + partSize)));
    }
    return sums;
  };
  return {
    /** The checksums of these parts, or undefined when the store does not want them. */
    async of(partNumbers: readonly number[]): Promise<string[] | undefined> {
      if (!isNeeded) return undefined;
      all ??= compute();
      const sums = await all;
      return partNumbers.map((partNumber) => sums[partNumber - 1]!);
    },
  };
}

/** A part's PUT headers: the ones signed into its URL, plus ours on the app's own endpoint. */
export function partHeaders(
  part: { isSameOrigin: boolean; headers?: Record<string, string> },
  own: Record<string, string>,
): Record<string, string> {
  return { ...(part.headers ?? {}), ...(part.isSameOrigin ? own : {}) };
}
