import { releaseBytes } from '@web/lib/sha256';
import {
  BACKUP_FORMAT,
  BACKUP_MESSAGES,
  BACKUP_VERSION,
  BackupError,
  MANIFEST_FILE,
  PROFILE_FILE,
  SEAL_FILE,
  ZBackupManifest,
  ZBackupProfile,
  ZBackupSeal,
  type TBackupManifest,
  type TBackupProfile,
  type TBackupSeal,
  type TBackupVideo,
} from './backup-manifest';
import { hashBytes } from './hash-blob';
import { startedAhead } from './in-turn';
import { measureInTurn } from './measure-video';
import { StoredZipWriter } from './stored-zip';
import {
  createBlobTarget,
  findStoredEntryBytes,
  readZipDirectory,
  readZipEntryBytes,
  readZipText,
  ZipReadError,
  ZipStreamWriter,
  type TZipEntry,
} from './zip-archive';

/**
 * The zip work of backups, restores and handovers: hashing, writing and reading archives. It
 * touches no store and no server, so it runs in the backup worker (backup.worker.ts) and, where
 * there are no workers (unit tests), in place.
 */

export const ENCRYPTION_NAME = 'WinZip AES-256';

/** Where a file goes: a file the person chose (streamed), else Blob parts handed back. */
export type TArchiveTarget = FileSystemFileHandle | null;

export type TOnBytes = (bytes: number) => void;

async function openTarget(target: TArchiveTarget) {
  if (target) {
    const stream = (await target.createWritable()) as WritableStream<Uint8Array | Blob>;
    return { stream, finish: () => null };
  }
  const blobTarget = createBlobTarget('application/zip');
  return { stream: blobTarget.stream, finish: () => blobTarget.toBlob() };
}

export interface TBackupArchiveVideo {
  /** The manifest's entry without what is measured while writing. */
  meta: Omit<TBackupVideo, 'sha256' | 'byteSize'>;
  blob: Blob;
}

export interface TWriteBackupArgs {
  manifest: Omit<TBackupManifest, 'videos' | 'sealed' | 'format' | 'version'>;
  profile: TBackupProfile | null;
  videos: TBackupArchiveVideo[];
  passphrase: string | null;
  hint: string | null;
  target: TArchiveTarget;
}

/**
 * The zip writer for an archive: a plain one is written by our own stored-entry writer, which
 * hands the file each video's own Blob; a sealed one by zip.js, which seals.
 */
function openZipWriter(stream: WritableStream<Uint8Array | Blob>, passphrase: string | null) {
  return passphrase
    ? { sealing: new ZipStreamWriter(stream, passphrase), plain: null }
    : { sealing: null, plain: new StoredZipWriter(stream) };
}

/**
 * Writes a backup in one pass over the videos: each is read once, hashed and stored, and the
 * manifest with every hash follows them (a reader finds entries by the zip's directory).
 */
export async function writeBackupArchive(
  args: TWriteBackupArgs,
  onBytes?: TOnBytes,
): Promise<Blob | null> {
  const { stream, finish } = await openTarget(args.target);
  const { sealing, plain } = openZipWriter(stream, args.passphrase);
  const zip = sealing ?? plain;
  const date = new Date(args.manifest.createdAt);
  const sealed = args.passphrase ? { hint: args.hint?.trim() || null } : undefined;
  if (sealed) {
    const seal: TBackupSeal = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      sealed: true,
      encryption: ENCRYPTION_NAME,
      hint: sealed.hint,
    };
    await zip.addText(SEAL_FILE, JSON.stringify(seal, null, 2), { date, isPlain: true });
  }
  const videos: TBackupVideo[] = [];
  const blobs = args.videos.map((video) => video.blob);
  const measuring = measureInTurn(blobs, plain !== null);
  for (const [index, { meta }] of args.videos.entries()) {
    const { value: measured } = await measuring.next();
    if (!measured) break;
    const { bytes, byteSize, sha256, crc32 } = measured;
    // The bytes actually stored, which is what the hash covers.
    videos.push({ ...meta, byteSize, sha256 });
    const date = new Date(meta.createdAt);
    if (plain && crc32 !== null) {
      const blob = blobs[index]!;
      // The header already carries the measured size: any other would make a broken entry.
      if (blob.size !== byteSize) throw new Error(`${meta.file} changed while it was read`);
      await plain.addBlob(meta.file, blob, { date, onBytes, crc32 });
    } else if (sealing && bytes) {
      // Read from the video's Blob: dropped after, never emptied (see releaseBytes).
      await sealing.addBytes(meta.file, bytes, { date, onBytes });
    } else {
      // Never listed in the manifest without its entry in the file.
      throw new Error(`${meta.file} was not measured for this kind of backup`);
    }
  }
  const manifest: TBackupManifest = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    ...args.manifest,
    videos,
    ...(sealed ? { sealed } : {}),
  };
  await zip.addText(MANIFEST_FILE, JSON.stringify(manifest, null, 2), { date });
  if (args.profile) {
    await zip.addText(PROFILE_FILE, JSON.stringify(args.profile, null, 2), { date });
  }
  await zip.close();
  return finish();
}

export interface TWriteFilesArgs {
  /** Small text entries first (the handover's pages); `isPlain` leaves one readable when sealed. */
  texts: { name: string; text: string; isPlain?: boolean }[];
  files: { name: string; blob: Blob; createdAt: string }[];
  createdAt: string;
  passphrase: string | null;
  target: TArchiveTarget;
}

/** A plain folder of files in a zip (the handover), sealed like a backup when asked. */
export async function writeFilesArchive(
  args: TWriteFilesArgs,
  onBytes?: TOnBytes,
): Promise<Blob | null> {
  const { stream, finish } = await openTarget(args.target);
  const { sealing, plain } = openZipWriter(stream, args.passphrase);
  const zip = sealing ?? plain;
  for (const text of args.texts) {
    await zip.addText(text.name, text.text, {
      date: new Date(args.createdAt),
      isPlain: text.isPlain,
    });
  }
  // The next file is read from the store while this one is written: at most two in memory.
  const read = startedAhead(
    args.files,
    1,
    async (file) => new Uint8Array(await file.blob.arrayBuffer()),
  );
  for (const file of args.files) {
    const { value: bytes } = await read.next();
    if (!bytes) break;
    await zip.addBytes(file.name, bytes, { date: new Date(file.createdAt), onBytes });
  }
  await zip.close();
  return finish();
}

// ---- Reading -------------------------------------------------------------------------------

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

export type TOpenResult =
  | { status: 'needs_passphrase'; hint: string | null }
  | { status: 'open'; manifest: TBackupManifest; profile: TBackupProfile | null };

export interface TOpenedArchive {
  file: Blob;
  files: Map<string, TZipEntry>;
  passphrase: string | null;
}

function toBackupError(error: unknown): BackupError {
  if (error instanceof BackupError) return error;
  if (error instanceof ZipReadError && error.reason === 'wrong_passphrase') {
    return new BackupError('wrong_passphrase', BACKUP_MESSAGES.wrongPassphrase);
  }
  return new BackupError('damaged', BACKUP_MESSAGES.damaged);
}

async function readText(opened: TOpenedArchive, name: string): Promise<string> {
  const entry = opened.files.get(name);
  if (!entry) throw new BackupError('damaged', BACKUP_MESSAGES.damaged);
  try {
    return await readZipText(entry, opened.passphrase);
  } catch (error) {
    throw toBackupError(error);
  }
}

async function readHint(opened: TOpenedArchive): Promise<string | null> {
  if (!opened.files.has(SEAL_FILE)) return null;
  const seal = ZBackupSeal.safeParse(parseJson(await readText(opened, SEAL_FILE)));
  return seal.success ? seal.data.hint : null;
}

/**
 * Opens and checks a backup file; every way it can be wrong becomes a plain BackupError. A sealed
 * backup without its passphrase answers `needs_passphrase` with the owner's hint; a wrong one
 * throws `wrong_passphrase` before anything is read further.
 */
export async function openBackupArchive(
  file: Blob,
  passphrase: string | null,
): Promise<{ opened: TOpenedArchive; result: TOpenResult }> {
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
  const opened: TOpenedArchive = { file, files, passphrase: passphrase || null };
  if (files.get(MANIFEST_FILE)?.encrypted && !opened.passphrase) {
    return { opened, result: { status: 'needs_passphrase', hint: await readHint(opened) } };
  }
  const raw = parseJson(await readText(opened, MANIFEST_FILE));
  if (!isRecord(raw) || raw.format !== BACKUP_FORMAT) {
    throw new BackupError('not_backup', BACKUP_MESSAGES.notBackup);
  }
  if (typeof raw.version === 'number' && raw.version > BACKUP_VERSION) {
    throw new BackupError('newer_version', BACKUP_MESSAGES.newerVersion);
  }
  const manifest = ZBackupManifest.safeParse(raw);
  if (!manifest.success) throw new BackupError('damaged', BACKUP_MESSAGES.damaged);

  let profile: TBackupProfile | null = null;
  if (files.has(PROFILE_FILE)) {
    const parsed = ZBackupProfile.safeParse(parseJson(await readText(opened, PROFILE_FILE)));
    if (!parsed.success) throw new BackupError('damaged', BACKUP_MESSAGES.damaged);
    profile = parsed.data;
  }
  return { opened, result: { status: 'open', manifest: manifest.data, profile } };
}

/** A video's bytes if they are all there and match the manifest's SHA-256; null otherwise. */
export async function readVerifiedVideo(
  opened: TOpenedArchive,
  video: TBackupVideo,
  onBytes?: TOnBytes,
): Promise<Blob | null> {
  const entry = opened.files.get(video.file);
  if (!entry || entry.uncompressedSize !== video.byteSize) return null;
  try {
    // A plain backup's video is a range of the file: it is read once, for its hash, and the
    // store copies that range from disk itself.
    const stored = await findStoredEntryBytes(opened.file, entry, video.mimeType);
    if (stored) {
      const bytes = new Uint8Array(await stored.arrayBuffer());
      onBytes?.(bytes.length);
      return (await hashBytes(bytes)) === video.sha256 ? stored : null;
    }
    // One buffer of the video's size, which the hash needs whole anyway: no Blob is read back.
    // The SHA-256 from the manifest (itself checked by the zip, and authenticated when sealed)
    // is stronger than the entry's CRC-32 and seal code, so those two passes are skipped.
    const bytes = await readZipEntryBytes(entry, {
      passphrase: opened.passphrase,
      isCheckedByCaller: true,
      onBytes,
    });
    if (!bytes) return null;
    const isIntact = (await hashBytes(bytes)) === video.sha256;
    // The Blob holds a copy of its own.
    const blob = isIntact ? new Blob([bytes], { type: video.mimeType }) : null;
    releaseBytes(bytes);
    return blob;
  } catch (error) {
    if (error instanceof BackupError) throw error;
    return null;
  }
}
