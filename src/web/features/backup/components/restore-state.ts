import type { TBackupErrorCode } from '../backup-manifest';
import type { TRestoreResult } from '../restore-backup';
import type { TByteProgressState } from './progress-bar';

/** Where a restore stands: the button's flow and its dialog share it. */
export type TRestoreState =
  | { step: 'idle' }
  | { step: 'passphrase'; file: File; fileName: string; hint: string | null; error: string | null }
  | { step: 'working'; fileName: string; progress: TByteProgressState }
  | { step: 'done'; fileName: string; result: TRestoreResult; lines: string[] }
  | { step: 'failed'; fileName: string; code: TBackupErrorCode | null; message: string };
