import { fromWorkerFailure } from './backup-manifest';
import type { TBackupOpName, TBackupOps, TWorkerReply, TWorkerRequest } from './backup-ops';

type TArgs<Op extends TBackupOpName> = Parameters<TBackupOps[Op]>[0];
type TResult<Op extends TBackupOpName> = Awaited<ReturnType<TBackupOps[Op]>>;

interface TPending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  onBytes?: (bytes: number) => void;
}

let worker: Worker | null = null;
const pending = new Map<number, TPending>();
let nextId = 1;

function startWorker(): Worker {
  if (worker) return worker;
  // Served from our own origin, so the content security policy needs nothing new.
  const started = new Worker(new URL('./backup.worker.ts', import.meta.url), { type: 'module' });
  started.addEventListener('message', (event: MessageEvent<TWorkerReply>) => {
    const reply = event.data;
    const call = pending.get(reply.id);
    if (!call) return;
    if (reply.kind === 'bytes') {
      call.onBytes?.(reply.bytes);
      return;
    }
    pending.delete(reply.id);
    if (reply.kind === 'done') call.resolve(reply.value);
    else call.reject(fromWorkerFailure(reply.error));
  });
  started.addEventListener('error', (event) => {
    for (const call of pending.values()) call.reject(new Error(event.message || 'Worker failed'));
    pending.clear();
    worker = null;
  });
  worker = started;
  return started;
}

/**
 * Runs one backup operation in the backup worker; where there are no workers (unit tests on
 * Node) the same code runs in place.
 */
export async function runBackupOp<Op extends TBackupOpName>(
  op: Op,
  args: TArgs<Op>,
  onBytes?: (bytes: number) => void,
): Promise<TResult<Op>> {
  if (typeof Worker === 'undefined') {
    const { BACKUP_OPS } = await import('./backup-ops');
    const run = BACKUP_OPS[op] as (args: unknown, onBytes: (bytes: number) => void) => unknown;
    return (await run(args, onBytes ?? (() => undefined))) as TResult<Op>;
  }
  const target = startWorker();
  const id = nextId++;
  return new Promise<TResult<Op>>((resolve, reject) => {
    pending.set(id, { resolve: resolve as (value: unknown) => void, reject, onBytes });
    const request: TWorkerRequest = { id, op, args };
    target.postMessage(request);
  });
}
