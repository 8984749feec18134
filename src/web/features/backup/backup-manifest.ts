import { z } from 'zod';
import { RELEASE_RULES } from '@shared/domain/legacy';

/**
 * The one-file backup (docs/decisions/016-backups-and-handover.md, format amended by
 * docs/decisions/062-backups-of-any-size-sealed.md). A zip with `manifest.json`, `profile.json`
 * (the account and its recipients) and each video as `videos/<id>.<webm|mp4>`, all stored
 * uncompressed; ZIP64 where needed; sealed with WinZip AES-256 when the owner chose a passphrase,
 * with only `seal.json` (the format and the hint) left readable.
 */
export const BACKUP_FORMAT = 'memento-backup';
export const BACKUP_VERSION = 2;
export const MANIFEST_FILE = 'manifest.json';
export const PROFILE_FILE = 'profile.json';
export const SEAL_FILE = 'seal.json';
export const HINT_MAX_LENGTH = 200;

export const BACKUP_TYPES = ['full_backup', 'profile_only', 'videos_only'] as const;
export const ZBackupType = z.enum(BACKUP_TYPES);
export type TBackupType = z.infer<typeof ZBackupType>;

export const backupHasVideos = (type: TBackupType) => type !== 'profile_only';
export const backupHasProfile = (type: TBackupType) => type !== 'videos_only';

const ZVideoFileName = z.string().regex(/^videos\/[0-9a-f-]{36}\.(webm|mp4)$/i);

export const ZBackupVideo = z.object({
  id: z.uuid(),
  recipientId: z.number().int().positive(),
  /** Empty when the recipient was no longer on the server when the backup was made. */
  recipientName: z.string().max(210),
  title: z.string().max(500),
  promptId: z.string().max(200).nullable(),
  mimeType: z.string().regex(/^video\/[a-z0-9.+-]+(;.*)?$/i),
  byteSize: z.number().int().min(1),
  durationMs: z.number().int().min(0),
  createdAt: z.iso.datetime({ offset: true }),
  file: ZVideoFileName,
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** When the recipient may watch; absent in version 1 backups (as if 'now'). */
  release: z
    .object({ rule: z.enum(RELEASE_RULES), at: z.iso.datetime({ offset: true }).nullable() })
    .optional(),
});
export type TBackupVideo = z.infer<typeof ZBackupVideo>;

export const ZBackupManifest = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.number().int().positive(),
  type: ZBackupType,
  createdAt: z.iso.datetime({ offset: true }),
  app: z.string(),
  account: z.object({ id: z.number().int().positive(), username: z.string().min(1) }),
  videos: z.array(ZBackupVideo),
  /** Present when the entries are sealed with a passphrase; the hint is never the passphrase. */
  sealed: z.object({ hint: z.string().max(HINT_MAX_LENGTH).nullable() }).optional(),
});
export type TBackupManifest = z.infer<typeof ZBackupManifest>;

/** The one entry a sealed backup leaves readable: what it is and the owner's hint. */
export const ZBackupSeal = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.number().int().positive(),
  sealed: z.literal(true),
  encryption: z.string(),
  hint: z.string().max(HINT_MAX_LENGTH).nullable(),
});
export type TBackupSeal = z.infer<typeof ZBackupSeal>;

export const ZBackupRecipient = z.object({
  id: z.number().int().positive(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  category: z.string(),
  phoneNumber: z.string().nullable(),
  relationship: z.string().nullable(),
});

export const ZBackupProfile = z.object({
  account: z.object({
    id: z.number().int().positive(),
    username: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
  }),
  recipients: z.array(ZBackupRecipient),
});
export type TBackupProfile = z.infer<typeof ZBackupProfile>;

/** The words a person sees when a backup cannot be made or read. */
export const BACKUP_MESSAGES = {
  notBackup:
    'This file is not a Memento backup. Please choose the file whose name starts with "memento-backup".',
  damaged:
    'This backup file is damaged and cannot be read. If you have another copy of it, please try that one.',
  newerVersion:
    'This backup was made by a newer version of Memento. Please update Memento, then try again.',
  otherAccount: (username: string) =>
    `This backup belongs to another account (${username}). Sign in as that account to restore it.`,
  profileOnly:
    'This backup holds your account details and recipients only, so it has no videos to restore. To restore videos, choose a full backup or a videos-only backup.',
  wrongPassphrase:
    'That passphrase does not open this backup. Nothing has been changed. Please check it and try again.',
  noSecureConnection:
    'Backups need a secure connection. Please open Memento with an address that starts with https://, then try again.',
  noSpace: (restored: number) =>
    `This device ran out of space. ${restored === 1 ? '1 video was' : `${restored} videos were`} restored before it did; the rest are still safe in your backup file.`,
  saveFailed: (reason: string) => `Failed to save video: ${reason}`,
} as const;

export type TBackupErrorCode =
  | 'not_backup'
  | 'damaged'
  | 'newer_version'
  | 'other_account'
  | 'profile_only'
  | 'wrong_passphrase'
  | 'needs_passphrase'
  | 'no_secure_connection'
  | 'no_space'
  | 'save_failed';

/** A backup that cannot be made or restored, with the plain message to show. */
export class BackupError extends Error {
  override name = 'BackupError';
  readonly code: TBackupErrorCode;

  constructor(code: TBackupErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** A failure as it crosses from a worker to its caller: a BackupError keeps its code. */
export interface TWorkerFailure {
  name: string;
  code?: string;
  message: string;
}

export function toWorkerFailure(error: unknown): TWorkerFailure {
  const failure = error instanceof Error ? error : new Error(String(error));
  const code = failure instanceof BackupError ? failure.code : undefined;
  return { name: failure.name, code, message: failure.message };
}

export function fromWorkerFailure(failure: TWorkerFailure): Error {
  if (failure.name === 'BackupError' && failure.code) {
    return new BackupError(failure.code as TBackupErrorCode, failure.message);
  }
  const error = new Error(failure.message);
  error.name = failure.name;
  return error;
}

/** The person's local date, as in the file name: 2026-11-22. */
export function formatLocalDate(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A name that every file system accepts: no path separators, reserved or control characters. */
export function makeSafeFileName(name: string, fallback: string, maxLength = 80): string {
  const cleaned = name
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[<>:"/\\|?*\u0000-\u001f\u007f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, maxLength)
    .replace(/[. ]+$/, '');
  return cleaned || fallback;
}

const BACKUP_NAME_SUFFIX: Record<TBackupType, string> = {
  full_backup: '',
  profile_only: '-profile-only',
  videos_only: '-videos-only',
};

export function makeBackupFileName(username: string, type: TBackupType, date: Date): string {
  const safeUser = makeSafeFileName(username, 'account').replace(/ /g, '-');
  return `memento-backup-${safeUser}-${formatLocalDate(date)}${BACKUP_NAME_SUFFIX[type]}.zip`;
}
