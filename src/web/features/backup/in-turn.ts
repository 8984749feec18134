/**
 * What `start` gives for each item, in order, with the next `ahead` items (one or more) already
 * started while the caller works on the one before: at most `ahead + 1` are under way or held.
 */
export async function* startedAhead<TItem, TResult>(
  items: readonly TItem[],
  ahead: number,
  start: (item: TItem, index: number) => Promise<TResult>,
): AsyncGenerator<TResult, void> {
  const started: Promise<TResult>[] = [];
  const startAt = (index: number) => {
    if (index >= items.length) return;
    const result = start(items[index]!, index);
    // Should the caller stop early, what was started ahead ends unheard.
    result.catch(() => undefined);
    started.push(result);
  };
  for (let index = 0; index < ahead; index += 1) startAt(index);
  for (let index = 0; index < items.length; index += 1) {
    const result = await started.shift()!;
    startAt(index + ahead);
    yield result;
  }
}
