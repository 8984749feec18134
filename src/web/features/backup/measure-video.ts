import { fromWorkerFailure, toWorkerFailure, type TWorkerFailure } from './backup-manifest';
import { measureBlob, type TMeasuredVideo } from './hash-blob';
import { startedAhead } from './in-turn';

export interface TMeasureRequest {
  id: number;
  blob: Blob;
  isPlain: boolean;
}

export type TMeasureReply =
  | { id: number; measured: TMeasuredVideo; error?: undefined }
  | { id: number; error: TWorkerFailure; measured?: undefined };

/**
 * Each video read and measured in turn, the next one while the caller writes the one before: on
 * a thread of its own where workers can start workers, else in place (unit tests on Node). At
 * most two videos are in memory.
 */
export async function* measureInTurn(
  blobs: Blob[],
  isPlain: boolean,
): AsyncGenerator<TMeasuredVideo, void> {
  let worker =
    typeof Worker === 'undefined'
      ? null
      : new Worker(new URL('./measure.worker.ts', import.meta.url), { type: 'module' });
  const waiting = new Map<number, { blob: Blob; settle: (reply: TMeasureReply) => void }>();
  worker?.addEventListener('message', (event: MessageEvent<TMeasureReply>) => {
    waiting.get(event.data.id)?.settle(event.data);
    waiting.delete(event.data.id);
  });
  const measure = (blob: Blob, id: number): Promise<TMeasuredVideo> => {
    const thread = worker;
    if (!thread) return measureBlob(blob, isPlain);
    return new Promise((resolve, reject) => {
      waiting.set(id, {
        blob,
        settle: (reply) =>
          reply.error ? reject(fromWorkerFailure(reply.error)) : resolve(reply.measured),
      });
      const request: TMeasureRequest = { id, blob, isPlain };
      thread.postMessage(request);
    });
  };
  // A worker that cannot start (a policy, a browser without nested workers) costs only speed.
  worker?.addEventListener('error', (event) => {
    event.preventDefault();
    worker?.terminate();
    worker = null;
    for (const [id, { blob, settle }] of waiting) {
      waiting.delete(id);
      measureBlob(blob, isPlain).then(
        (measured) => settle({ id, measured }),
        (error: unknown) => settle({ id, error: toWorkerFailure(error) }),
      );
    }
  });
  try {
    yield* startedAhead(blobs, 1, measure);
  } finally {
    worker?.terminate();
  }
}
