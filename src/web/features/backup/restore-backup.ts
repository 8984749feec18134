import type { TCreateVideoIndexBody } from '@shared/schemas/videos';
import { getVideo, markIndexed, saveVideo } from '@web/features/videos';
import {
  BACKUP_FORMAT,
  BACKUP_MESSAGES,
  BACKUP_VERSION,
  BackupError,
  MANIFEST_FILE,
  PROFILE_FILE,
  ZBackupManifest,
  ZBackupProfile,
  type TBackupManifest,
  type TBackupProfile,
  type TBackupVideo,
} from './backup-manifest';
import { hashBlob } from './hash-blob';
import {
  readZipDirectory,
  readZipEntry,
  readZipText,
  ZipReadError,
  type TZipEntry,
} from './zip-reader';

export interface TOpenedBackup {
  manifest: TBackupManifest;
  profile: TBackupProfile | null;
  /** The zip's entries by their name inside the backup (any outer folder taken off). */
  files: Map<string, TZipEntry>;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new BackupError('damaged', BACKUP_MESSAGES.damaged);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The manifest at the top, or inside one folder: a person who unzipped a backup and zipped the
 * folder again still has a backup.
 */
function findManifestPrefix(entries: Map<string, TZipEntry>): string | null {
  if (entries.has(MANIFEST_FILE)) return '';
  const nested = [...entries.keys()]
    .filter((name) => name.endsWith(`/${MANIFEST_FILE}`) && !name.startsWith('__MACOSX/'))
    .sort((a, b) => a.length - b.length)[0];
  return nested === undefined ? null : nested.slice(0, -MANIFEST_FILE.length);
}

/** Opens and checks a backup file; every way it can be wrong becomes a plain BackupError. */
export async function openBackup(file: Blob): Promise<TOpenedBackup> {
  let entries: Map<string, TZipEntry>;
  try {
    entries = await readZipDirectory(file);
  } catch (error) {
    if (error instanceof ZipReadError && error.reason === 'not_zip') {
      throw new BackupError('not_backup', BACKUP_MESSAGES.notBackup);
    }
    throw new BackupError('damaged', BACKUP_MESSAGES.damaged);
  }
  const prefix = findManifestPrefix(entries);
  if (prefix === null) throw new BackupError('not_backup', BACKUP_MESSAGES.notBackup);

  const files = new Map<string, TZipEntry>();
  for (const [name, entry] of entries) {
    if (name.startsWith(prefix)) files.set(name.slice(prefix.length), entry);
  }
  const raw = parseJson(await readText(file, files.get(MANIFEST_FILE)));
  if (!isRecord(raw) || raw.format !== BACKUP_FORMAT) {
    throw new BackupError('not_backup', BACKUP_MESSAGES.notBackup);
  }
  if (typeof raw.version === 'number' && raw.version > BACKUP_VERSION) {
    throw new BackupError('newer_version', BACKUP_MESSAGES.newerVersion);
  }
  const manifest = ZBackupManifest.safeParse(raw);
  if (!manifest.success) throw new BackupError('damaged', BACKUP_MESSAGES.damaged);

  let profile: TBackupProfile | null = null;
  const profileEntry = files.get(PROFILE_FILE);
  if (profileEntry) {
    const parsed = ZBackupProfile.safeParse(parseJson(await readText(file, profileEntry)));
    if (!parsed.success) throw new BackupError('damaged', BACKUP_MESSAGES.damaged);
    profile = parsed.data;
  }
  return { manifest: manifest.data, profile, files };
}

async function readText(file: Blob, entry: TZipEntry | undefined): Promise<string> {
  if (!entry) throw new BackupError('damaged', BACKUP_MESSAGES.damaged);
  try {
    return await readZipText(file, entry);
  } catch {
    throw new BackupError('damaged', BACKUP_MESSAGES.damaged);
  }
}

export interface TRestoreInput {
  file: Blob;
  account: { id: number; username: string };
  /**
   * The ids of the account's recipients on the server now; null when the server could not be
   * asked (offline), in which case every video is offered to the index and a refusal waits.
   */
  recipientIds: ReadonlySet<number> | null;
  /** POST /api/videos (idempotent). A parameter, so the format is tested without a server. */
  indexVideo: (body: TCreateVideoIndexBody) => Promise<unknown>;
  onProgress?: (fraction: number) => void;
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

async function readVerifiedVideo(file: Blob, entry: TZipEntry | undefined, video: TBackupVideo) {
  if (!entry) return null;
  try {
    const blob = await readZipEntry(file, entry, video.mimeType);
    if (blob.size !== video.byteSize) return null;
    return (await hashBlob(blob)) === video.sha256 ? blob : null;
  } catch (error) {
    if (error instanceof BackupError) throw error;
    return null;
  }
}

/**
 * Restores a backup onto the account it was made from (decision 016): every video is checked
 * against its SHA-256, a video already on this device is never saved twice, the rest are saved
 * with their own id, title and time, and then announced to the server's index.
 */
export async function restoreBackup(input: TRestoreInput): Promise<TRestoreResult> {
  const { file, account } = input;
  const { manifest, files } = await openBackup(file);
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
  const totalBytes = manifest.videos.reduce((sum, video) => sum + video.byteSize, 0);
  let doneBytes = 0;
  input.onProgress?.(0);

  for (const video of manifest.videos) {
    if (await getVideo(video.id)) {
      result.alreadyHere += 1;
    } else {
      const blob = await readVerifiedVideo(file, files.get(video.file), video);
      if (!blob) {
        result.damagedTitles.push(video.title);
      } else {
        await saveRestoredVideo(input, video, blob, result);
        const isOrphan = input.recipientIds !== null && !input.recipientIds.has(video.recipientId);
        if (isOrphan) {
          orphans.set(video.recipientName, (orphans.get(video.recipientName) ?? 0) + 1);
        } else {
          await announceToIndex(input, video, result);
        }
      }
    }
    doneBytes += video.byteSize;
    input.onProgress?.(totalBytes === 0 ? 1 : doneBytes / totalBytes);
  }
  input.onProgress?.(1);
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
    });
    await markIndexed(video.id);
  } catch {
    // The video is safe on this device; the dashboard sends pending index rows again later.
    result.notIndexed += 1;
  }
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
