import type { TRelease } from '@shared/domain/legacy';
import type { TCreateVideoIndexBody } from '@shared/schemas/videos';
import { getVideo, markIndexed, saveVideo } from '@web/lib/videos/local-store';
import type { TOpenResult } from './backup-archive';
import { runBackupOp } from './backup-client';
import {
  BACKUP_MESSAGES,
  BackupError,
  type TBackupManifest,
  type TBackupProfile,
  type TBackupVideo,
} from './backup-manifest';
import type { TByteProgress } from './create-backup';
import { startedAhead } from './in-turn';

/** Videos read and checked ahead of the one being saved. */
const RESTORE_READ_AHEAD = 2;

/** A sealed backup opened without its passphrase: the form asks for it, showing the hint. */
export class PassphraseNeededError extends BackupError {
  readonly hint: string | null;

  constructor(hint: string | null) {
    super('needs_passphrase', 'This backup is protected with a passphrase.');
    this.hint = hint;
  }
}

export interface TOpenedBackup {
  manifest: TBackupManifest;
  profile: TBackupProfile | null;
  /** The worker's handle on the open file, for reading its videos; closed by `closeBackup`. */
  handle: number;
}

/**
 * Opens and checks a backup file (in the backup worker); every way it can be wrong becomes a
 * plain BackupError, and a sealed one without its passphrase a PassphraseNeededError.
 */
export async function openBackup(file: Blob, passphrase?: string | null): Promise<TOpenedBackup> {
  const { handle, result }: { handle: number; result: TOpenResult } = await runBackupOp('open', {
    file,
    passphrase: passphrase || null,
  });
  if (result.status === 'needs_passphrase') throw new PassphraseNeededError(result.hint);
  return { manifest: result.manifest, profile: result.profile, handle };
}

export function closeBackup(opened: TOpenedBackup): Promise<void> {
  return runBackupOp('close', { handle: opened.handle });
}

export interface TRestoreInput {
  file: Blob;
  /** For a sealed backup; it never leaves this browser. */
  passphrase?: string | null;
  account: { id: number; username: string };
  /**
   * The ids of the account's recipients on the server now; null when the server could not be
   * asked (offline), in which case every video is offered to the index and a refusal waits.
   */
  recipientIds: ReadonlySet<number> | null;
  /** POST /api/videos (idempotent). A parameter, so the format is tested without a server. */
  indexVideo: (body: TCreateVideoIndexBody) => Promise<unknown>;
  onProgress?: (progress: TByteProgress) => void;
}

export interface TRestoreResult {
  /** When the backup was made, as its manifest says. */
  backupCreatedAt: string;
  /** Videos listed in the backup. */
  videoCount: number;
  restored: number;
  alreadyHere: number;
  /** Titles of videos whose bytes did not match their SHA-256: not saved. */
  damagedTitles: string[];
  /** Saved here, but their recipient is gone from the server, so they are not in the index. */
  withoutRecipient: { recipientName: string; count: number }[];
  /** Saved here; the index was not told yet (offline or refused) and is retried later. */
  notIndexed: number;
}

function isSameAccount(manifest: TBackupManifest, account: TRestoreInput['account']): boolean {
  return (
    manifest.account.id === account.id &&
    manifest.account.username.toLowerCase() === account.username.toLowerCase()
  );
}

function isQuotaError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const inner = (error as Error & { inner?: unknown }).inner;
  return (
    error.name === 'QuotaExceededError' ||
    (inner instanceof Error && inner.name === 'QuotaExceededError')
  );
}

/**
 * Restores a backup onto the account it was made from (never another one): every video is checked
 * against its SHA-256, a video already on this device is never saved twice, the rest are saved
 * with their own id, title and time, and then announced to the server's index.
 */
export async function restoreBackup(input: TRestoreInput): Promise<TRestoreResult> {
  const opened = await openBackup(input.file, input.passphrase);
  try {
    return await restoreOpened(input, opened);
  } finally {
    await closeBackup(opened);
  }
}

async function restoreOpened(input: TRestoreInput, opened: TOpenedBackup) {
  const { manifest } = opened;
  const { account } = input;
  if (!isSameAccount(manifest, account)) {
    throw new BackupError('other_account', BACKUP_MESSAGES.otherAccount(manifest.account.username));
  }
  if (manifest.type === 'profile_only') {
    throw new BackupError('profile_only', BACKUP_MESSAGES.profileOnly);
  }

  const result: TRestoreResult = {
    backupCreatedAt: manifest.createdAt,
    videoCount: manifest.videos.length,
    restored: 0,
    alreadyHere: 0,
    damagedTitles: [],
    withoutRecipient: [],
    notIndexed: 0,
  };
  const orphans = new Map<string, number>();
  const { videos } = manifest;
  const totalBytes = videos.reduce((sum, video) => sum + video.byteSize, 0);
  let doneBytes = 0;
  /** Of the videos being read while an earlier one is saved. */
  const readingBytes = new Map<string, number>();
  const report = () => {
    const reading = [...readingBytes.values()].reduce((sum, bytes) => sum + bytes, 0);
    input.onProgress?.({ doneBytes: doneBytes + reading, totalBytes });
  };
  report();

  // Asked before any save: a read waits for every write transaction on its store.
  const isHere = new Set(
    (await Promise.all(videos.map((video) => getVideo(video.id)))).flatMap((video) =>
      video ? [video.id] : [],
    ),
  );
  const readIfMissing = async (video: TBackupVideo): Promise<Blob | null | 'already_here'> => {
    if (isHere.has(video.id)) return 'already_here';
    return runBackupOp('readVideo', { handle: opened.handle, video }, (bytes) => {
      readingBytes.set(
        video.file,
        Math.min((readingBytes.get(video.file) ?? 0) + bytes, video.byteSize),
      );
      report();
    });
  };

  // The worker reads and checks the next videos while this one is saved and announced: one
  // video's file read overlaps another's hash. Two at most, so memory stays bounded.
  const reads = startedAhead(videos, RESTORE_READ_AHEAD, readIfMissing);
  let announcing = Promise.resolve();
  for (const video of videos) {
    const { value: read } = await reads.next();
    doneBytes += video.byteSize;
    readingBytes.delete(video.file);
    if (read === 'already_here') {
      result.alreadyHere += 1;
    } else if (!read) {
      result.damagedTitles.push(video.title);
    } else {
      await saveRestoredVideo(input, video, read, result);
      const isOrphan = input.recipientIds !== null && !input.recipientIds.has(video.recipientId);
      if (isOrphan) {
        orphans.set(video.recipientName, (orphans.get(video.recipientName) ?? 0) + 1);
      } else {
        // The server is told in the background, one video after another, while the next saves.
        announcing = announcing.then(() => announceToIndex(input, video, result));
      }
    }
    report();
  }
  await announcing;
  result.withoutRecipient = [...orphans].map(([recipientName, count]) => ({
    recipientName,
    count,
  }));
  return result;
}

async function saveRestoredVideo(
  input: TRestoreInput,
  video: TBackupVideo,
  blob: Blob,
  result: TRestoreResult,
): Promise<void> {
  try {
    await saveVideo({
      id: video.id,
      creatorId: input.account.id,
      recipientId: video.recipientId,
      title: video.title,
      promptId: video.promptId,
      blob,
      durationMs: video.durationMs,
      createdAt: video.createdAt,
      release: video.release,
    });
    result.restored += 1;
  } catch (error) {
    if (isQuotaError(error))
      throw new BackupError('no_space', BACKUP_MESSAGES.noSpace(result.restored));
    const reason = error instanceof Error && error.message ? error.message : 'Transaction failed';
    throw new BackupError('save_failed', BACKUP_MESSAGES.saveFailed(reason));
  }
}

async function announceToIndex(input: TRestoreInput, video: TBackupVideo, result: TRestoreResult) {
  try {
    await input.indexVideo({
      id: video.id,
      recipientId: video.recipientId,
      storageType: 'local',
      syncStatus: 'local_only',
      metadata: {
        byteSize: video.byteSize,
        durationMs: video.durationMs,
        mimeType: video.mimeType,
      },
      createdAt: video.createdAt,
      release: releaseToSend(video.release),
    });
    await markIndexed(video.id);
  } catch {
    // The video is safe on this device; the dashboard sends pending index rows again later.
    result.notIndexed += 1;
  }
}

/** A date that passed since the backup opens the message now: the server refuses past dates. */
function releaseToSend(release: TRelease | undefined): TRelease {
  if (!release) return { rule: 'now', at: null };
  if (release.rule === 'date' && (!release.at || Date.parse(release.at) <= Date.now())) {
    return { rule: 'now', at: null };
  }
  return release;
}

const videos = (count: number) => `${count} video${count === 1 ? '' : 's'}`;

/** The sentences the person reads after a restore, most important first. */
export function describeRestoreResult(result: TRestoreResult): string[] {
  if (result.videoCount === 0)
    return ['This backup has no videos in it, so there was nothing to restore.'];
  const lines: string[] = [];
  const { restored, alreadyHere } = result;
  const already =
    alreadyHere === 0 ? 'None were' : alreadyHere === 1 ? '1 was' : `${alreadyHere} were`;
  lines.push(`Restored ${videos(restored)}. ${already} already on this device.`);
  if (result.damagedTitles.length > 0) {
    const titles = result.damagedTitles.map((title) => `"${title}"`).join(', ');
    lines.push(
      `${result.damagedTitles.length === 1 ? '1 video was' : `${result.damagedTitles.length} videos were`} damaged in the backup file and could not be restored: ${titles}.`,
    );
  }
  for (const { recipientName, count } of result.withoutRecipient) {
    const who = recipientName ? `${recipientName}, who` : 'someone who';
    lines.push(
      `${count === 1 ? '1 video was' : `${count} videos were`} recorded for ${who} is no longer one of your recipients. ${count === 1 ? 'It is' : 'They are'} kept safe on this device and will be in your next backup.`,
    );
  }
  if (result.notIndexed > 0) {
    lines.push(
      `${result.notIndexed === 1 ? '1 video is' : `${result.notIndexed} videos are`} safe on this device but not yet in your account's list. Memento will try again the next time you open the home page.`,
    );
  }
  return lines;
}
