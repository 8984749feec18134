// First: zod must not probe for eval under the worker's content security policy.
import '@web/lib/zod-jitless';
import { toWorkerFailure } from './backup-manifest';
import { measureBlob } from './hash-blob';
import type { TMeasureReply, TMeasureRequest } from './measure-video';

/**
 * Reads a video and takes its SHA-256 and CRC-32 on a thread of its own, while the backup worker
 * writes the video before it; the bytes, when they are wanted, move over without a copy.
 */
// The DOM library types `self` as a window; in here it is the worker's own scope.
const post = (reply: TMeasureReply, transfer: Transferable[] = []) =>
  (self as unknown as Worker).postMessage(reply, transfer);

self.addEventListener('message', (event: MessageEvent<TMeasureRequest>) => {
  const { id, blob, isPlain } = event.data;
  void (async () => {
    try {
      const measured = await measureBlob(blob, isPlain);
      post({ id, measured }, measured.bytes ? [measured.bytes.buffer] : []);
    } catch (error) {
      post({ id, error: toWorkerFailure(error) });
    }
  })();
});
