import type { TRecipient } from '@shared/schemas/recipients';
import { fileExtensionFor } from '@web/lib/video-format';
import { getVideoBlob, listVideos } from '@web/features/videos';
import {
  BACKUP_FORMAT,
  BACKUP_MESSAGES,
  BACKUP_VERSION,
  BackupError,
  backupHasProfile,
  backupHasVideos,
  makeBackupFileName,
  MANIFEST_FILE,
  PROFILE_FILE,
  type TBackupManifest,
  type TBackupProfile,
  type TBackupType,
  type TBackupVideo,
} from './backup-manifest';
import { hashBlob } from './hash-blob';
import { MAX_ZIP_BYTES, ZipBlobWriter } from './zip-writer';

export interface TBackupAccount {
  id: number;
  username: string;
  firstName: string;
  lastName: string;
  email: string;
}

export interface TCreateBackupInput {
  type: TBackupType;
  account: TBackupAccount;
  /** The recipients as the server lists them now: their names go with each video. */
  recipients: readonly TRecipient[];
  now?: Date;
  /** 0 to 1: hashing every video is the first half, copying it into the file the second. */
  onProgress?: (fraction: number) => void;
}

export interface TCreatedBackup {
  blob: Blob;
  fileName: string;
  videoCount: number;
}

const PER_FILE_OVERHEAD_BYTES = 200;

function toProfile(account: TBackupAccount, recipients: readonly TRecipient[]): TBackupProfile {
  return {
    account: {
      id: account.id,
      username: account.username,
      firstName: account.firstName,
      lastName: account.lastName,
      email: account.email,
    },
    recipients: recipients.map((recipient) => ({
      id: recipient.id,
      firstName: recipient.firstName,
      lastName: recipient.lastName,
      email: recipient.email,
      category: recipient.category,
      phoneNumber: recipient.phoneNumber,
      relationship: recipient.relationship,
    })),
  };
}

/**
 * Makes one backup file of this account's data on this device. The manifest comes first and
 * carries every video's SHA-256, so all videos are hashed before any is copied into the file.
 */
export async function createBackup(input: TCreateBackupInput): Promise<TCreatedBackup> {
  const { type, account, recipients } = input;
  const now = input.now ?? new Date();
  const names = new Map(recipients.map((r) => [r.id, `${r.firstName} ${r.lastName}`]));
  const videos = backupHasVideos(type)
    ? (await listVideos(account.id)).sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    : [];

  const totalBytes = videos.reduce((sum, video) => sum + video.byteSize, 0);
  if (totalBytes + videos.length * PER_FILE_OVERHEAD_BYTES > MAX_ZIP_BYTES) {
    throw new BackupError('too_large', BACKUP_MESSAGES.tooLarge);
  }
  let doneBytes = 0;
  const report = (bytes: number) => {
    doneBytes += bytes;
    input.onProgress?.(totalBytes === 0 ? 1 : Math.min(1, doneBytes / (2 * totalBytes)));
  };
  input.onProgress?.(0);

  const entries: { video: TBackupVideo; blob: Blob }[] = [];
  for (const video of videos) {
    const blob = await getVideoBlob(video);
    const entry: TBackupVideo = {
      id: video.id,
      recipientId: video.recipientId,
      recipientName: names.get(video.recipientId) ?? '',
      title: video.title,
      promptId: video.promptId,
      mimeType: video.mimeType,
      // The bytes actually stored, which is what the hash covers.
      byteSize: blob.size,
      durationMs: video.durationMs,
      createdAt: video.createdAt,
      file: `videos/${video.id}.${fileExtensionFor(video.mimeType)}`,
      sha256: await hashBlob(blob),
    };
    entries.push({ video: entry, blob });
    report(video.byteSize);
  }

  const manifest: TBackupManifest = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    type,
    createdAt: now.toISOString(),
    app: 'Memento',
    account: { id: account.id, username: account.username },
    videos: entries.map((entry) => entry.video),
  };
  const zip = new ZipBlobWriter();
  zip.addText(MANIFEST_FILE, JSON.stringify(manifest, null, 2), now);
  if (backupHasProfile(type)) {
    zip.addText(PROFILE_FILE, JSON.stringify(toProfile(account, recipients), null, 2), now);
  }
  for (const { video, blob } of entries) {
    await zip.addBlob(video.file, blob, { date: new Date(video.createdAt), onBytes: report });
  }
  const blob = await zip.finish();
  input.onProgress?.(1);
  return {
    blob,
    fileName: makeBackupFileName(account.username, type, now),
    videoCount: videos.length,
  };
}
