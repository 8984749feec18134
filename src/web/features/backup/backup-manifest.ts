import { z } from 'zod';

/**
 * The one-file backup (DESIGN.md principle 2, SPEC §4 'Backup types'; decision 016). A zip whose
 * first entry is `manifest.json`; `profile.json` holds the account and its recipients; each video
 * is `videos/<id>.<webm|mp4>`, stored uncompressed because video is compressed already.
 */
export const BACKUP_FORMAT = 'memento-backup';
export const BACKUP_VERSION = 1;
export const MANIFEST_FILE = 'manifest.json';
export const PROFILE_FILE = 'profile.json';

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
});
export type TBackupManifest = z.infer<typeof ZBackupManifest>;

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
  tooLarge:
    'Your videos add up to more than 4 GB, which is more than one backup file can hold. Please ask for help before clearing anything on this device.',
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
  | 'too_large'
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
