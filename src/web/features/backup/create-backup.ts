import type { TRecipient } from '@shared/schemas/recipients';
import { fileExtensionFor } from '@web/lib/video-format';
import { getVideoBlob, listVideos } from '@web/lib/videos/local-store';
import type { TArchiveTarget } from './backup-archive';
import { runBackupOp } from './backup-client';
import {
  backupHasProfile,
  backupHasVideos,
  makeBackupFileName,
  type TBackupProfile,
  type TBackupType,
} from './backup-manifest';

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
  /** Seals every entry with WinZip AES-256; it never leaves this browser. */
  passphrase?: string | null;
  /** Kept readable in the sealed file, to remind the owner; never the passphrase. */
  hint?: string | null;
  /** A file the person chose to stream into; without one the backup is built as a Blob. */
  target?: TArchiveTarget;
  onProgress?: (progress: TByteProgress) => void;
}

export interface TByteProgress {
  doneBytes: number;
  totalBytes: number;
}

export interface TCreatedBackup {
  /** Null when the backup went straight into the file the person chose. */
  blob: Blob | null;
  fileName: string;
  videoCount: number;
}

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
 * Makes one backup file of this account's data on this device. The zip work runs in the backup
 * worker; here the videos are listed and handed over as Blobs, which cost no copying.
 */
export async function createBackup(input: TCreateBackupInput): Promise<TCreatedBackup> {
  const { type, account, recipients } = input;
  const now = input.now ?? new Date();
  const names = new Map(recipients.map((r) => [r.id, `${r.firstName} ${r.lastName}`]));
  const videos = backupHasVideos(type)
    ? (await listVideos(account.id)).sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    : [];
  const totalBytes = videos.reduce((sum, video) => sum + video.byteSize, 0);
  let doneBytes = 0;
  input.onProgress?.({ doneBytes, totalBytes });

  const entries = [];
  for (const video of videos) {
    entries.push({
      meta: {
        id: video.id,
        recipientId: video.recipientId,
        recipientName: names.get(video.recipientId) ?? '',
        title: video.title,
        promptId: video.promptId,
        mimeType: video.mimeType,
        durationMs: video.durationMs,
        createdAt: video.createdAt,
        file: `videos/${video.id}.${fileExtensionFor(video.mimeType)}`,
        release: video.release ?? { rule: 'now' as const, at: null },
      },
      blob: await getVideoBlob(video),
    });
  }
  const blob = await runBackupOp(
    'writeBackup',
    {
      manifest: {
        type,
        createdAt: now.toISOString(),
        app: 'Memento',
        account: { id: account.id, username: account.username },
      },
      profile: backupHasProfile(type) ? toProfile(account, recipients) : null,
      videos: entries,
      passphrase: input.passphrase || null,
      hint: input.hint || null,
      target: input.target ?? null,
    },
    (bytes) => {
      doneBytes += bytes;
      input.onProgress?.({ doneBytes: Math.min(doneBytes, totalBytes), totalBytes });
    },
  );
  input.onProgress?.({ doneBytes: totalBytes, totalBytes });
  return {
    blob,
    fileName: makeBackupFileName(account.username, type, now),
    videoCount: videos.length,
  };
}
