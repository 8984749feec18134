// First: zod must not probe for eval under the worker's content security policy.
import '@web/lib/zod-jitless';
import { toWorkerFailure } from './backup-manifest';
import { BACKUP_OPS, type TWorkerReply, type TWorkerRequest } from './backup-ops';

/** The backup worker: zip, seal, hash and verify away from the page, which stays responsive. */
// The DOM library types `self` as a window; in here it is the worker's own scope.
const post = (reply: TWorkerReply) => (self as unknown as Worker).postMessage(reply);

self.addEventListener('message', (event: MessageEvent<TWorkerRequest>) => {
  const { id, op, args } = event.data;
  const run = BACKUP_OPS[op] as (
    args: unknown,
    onBytes: (bytes: number) => void,
  ) => Promise<unknown>;
  // Progress is summed here and sent at most every 100 ms: a message per slice would flood.
  let pending = 0;
  let lastSent = 0;
  const onBytes = (bytes: number) => {
    pending += bytes;
    const now = performance.now();
    if (now - lastSent >= 100) {
      post({ id, kind: 'bytes', bytes: pending });
      pending = 0;
      lastSent = now;
    }
  };
  run(args, onBytes).then(
    (value) => {
      if (pending > 0) post({ id, kind: 'bytes', bytes: pending });
      post({ id, kind: 'done', value });
    },
    (error: unknown) => post({ id, kind: 'failed', error: toWorkerFailure(error) }),
  );
});
