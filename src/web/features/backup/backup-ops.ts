import {
  openBackupArchive,
  readVerifiedVideo,
  writeBackupArchive,
  writeFilesArchive,
  type TOnBytes,
  type TOpenedArchive,
  type TOpenResult,
  type TWriteBackupArgs,
  type TWriteFilesArgs,
} from './backup-archive';
import type { TBackupVideo, TWorkerFailure } from './backup-manifest';

/** Backups opened for a restore, by handle: the zip's directory is read once per restore. */
const openedArchives = new Map<number, TOpenedArchive>();
let nextHandle = 1;

/** Everything the backup worker does; the page calls these by name (backup-client.ts). */
export const BACKUP_OPS = {
  writeBackup: (args: TWriteBackupArgs, onBytes: TOnBytes) => writeBackupArchive(args, onBytes),
  writeFiles: (args: TWriteFilesArgs, onBytes: TOnBytes) => writeFilesArchive(args, onBytes),
  async open(args: { file: Blob; passphrase: string | null }): Promise<{
    handle: number;
    result: TOpenResult;
  }> {
    const { opened, result } = await openBackupArchive(args.file, args.passphrase);
    const handle = nextHandle++;
    if (result.status === 'open') openedArchives.set(handle, opened);
    return { handle, result };
  },
  readVideo(args: { handle: number; video: TBackupVideo }, onBytes: TOnBytes) {
    const opened = openedArchives.get(args.handle);
    return opened ? readVerifiedVideo(opened, args.video, onBytes) : Promise.resolve(null);
  },
  close(args: { handle: number }): Promise<void> {
    openedArchives.delete(args.handle);
    return Promise.resolve();
  },
};

export type TBackupOps = typeof BACKUP_OPS;
export type TBackupOpName = keyof TBackupOps;

/** What crosses from the worker to the page. */
export type TWorkerReply =
  | { id: number; kind: 'bytes'; bytes: number }
  | { id: number; kind: 'done'; value: unknown }
  | { id: number; kind: 'failed'; error: TWorkerFailure };

export interface TWorkerRequest {
  id: number;
  op: TBackupOpName;
  args: unknown;
}
