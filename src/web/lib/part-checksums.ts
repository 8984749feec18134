import { sha256Hex } from './sha256';

/**
 * The SHA-256 of each part of a recording, each computed once, when first asked for, from that
 * part alone: a long recording is read a part at a time, never whole. Part n is `of([n])`.
 */
export function partChecksums(blob: Blob, partSize: number) {
  const sums = new Map<number, Promise<string>>();
  const one = (partNumber: number) => {
    let sum = sums.get(partNumber);
    if (!sum) {
      const start = (partNumber - 1) * partSize;
      sum = sha256Hex(blob.slice(start, start + partSize));
      // A read that failed (the recording cleared meanwhile) is tried again when asked again.
      sum.catch(() => sums.delete(partNumber));
      sums.set(partNumber, sum);
    }
    return sum;
  };
  return {
    /** The checksums of these parts, read one after another. */
    async of(partNumbers: readonly number[]): Promise<string[]> {
      const out: string[] = [];
      for (const partNumber of partNumbers) out.push(await one(partNumber));
      return out;
    },
    /**
     * The checksum of the part about to be sent. Parts go one at a time, so the next one is hashed
     * meanwhile, ready when its turn comes.
     */
    async forSending(partNumber: number): Promise<string> {
      const sum = await one(partNumber);
      if (partNumber * partSize < blob.size) one(partNumber + 1).catch(() => undefined);
      return sum;
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
