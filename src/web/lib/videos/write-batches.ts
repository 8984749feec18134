/** Chunks handed to the library and not yet written, above which reading a copy waits. */
const MAX_CHUNKS_WAITING = 8;

/**
 * The chunk writes of one copy, as they are handed over: `roomForMore` waits while more than a
 * few are unwritten, so a download never runs far ahead of the library; `all` settles once every
 * one is written, or once each has ended and one was not (then throws why), so none lands after
 * a next try has begun; `settled` once each has ended either way.
 */
export function copyWrites() {
  const writes: Promise<void>[] = [];
  const waiting = new Set<Promise<void>>();
  return {
    get count() {
      return writes.length;
    },
    add(written: Promise<void>) {
      writes.push(written);
      // Its failure is heard by `all`.
      const settled: Promise<void> = written
        .catch(() => undefined)
        .then(() => {
          waiting.delete(settled);
        });
      waiting.add(settled);
    },
    async roomForMore() {
      while (waiting.size > MAX_CHUNKS_WAITING) await Promise.race(waiting);
    },
    async all() {
      const failed = (await Promise.allSettled(writes)).find(
        (write) => write.status === 'rejected',
      );
      if (failed) throw failed.reason;
    },
    settled: () => Promise.allSettled(writes),
  };
}

/** Rows written in one transaction at most: enough to spread a commit's cost, little held. */
const MAX_ROWS_A_WRITE = 8;

/**
 * Writes rows with `writeBatch`, one transaction at a time: rows that arrive while a write runs
 * go together in the next (each commit costs). Each `write` settles once its own row's write
 * committed, with what `writeBatch` answered for that row, or failed.
 */
export function writeInBatches<T, R = void>(writeBatch: (rows: T[]) => Promise<R[] | void>) {
  const waiting: Array<{ row: T; resolve: (result: R) => void; reject: (error: unknown) => void }> =
    [];
  let isWriting = false;
  const writeWaiting = async () => {
    isWriting = true;
    while (waiting.length > 0) {
      const batch = waiting.splice(0, MAX_ROWS_A_WRITE);
      try {
        const results = await writeBatch(batch.map((job) => job.row));
        batch.forEach((job, at) => job.resolve(results?.[at] as R));
      } catch (error) {
        for (const job of batch) job.reject(error);
      }
    }
    isWriting = false;
  };
  return (row: T) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ row, resolve, reject });
      if (!isWriting) void writeWaiting();
    });
}
