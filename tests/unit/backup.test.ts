import 'fake-indexeddb/auto';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { strFromU8, unzipSync, zipSync } from 'fflate';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TRecipient } from '@shared/schemas/recipients';
import type { TCreateVideoIndexBody } from '@shared/schemas/videos';
import {
  BACKUP_MESSAGES,
  BackupError,
  type TBackupManifest,
  type TBackupType,
} from '@web/features/backup/backup-manifest';
import { createBackup, type TBackupAccount } from '@web/features/backup/create-backup';
import { createHandover, README_FILE } from '@web/features/backup/create-handover';
import { updateCrc32 } from '@web/features/backup/crc32';
import { readZipDirectory } from '@web/features/backup/zip-archive';
import {
  describeRestoreResult,
  openBackup,
  restoreBackup,
  type TRestoreInput,
} from '@web/features/backup/restore-backup';
import {
  deleteLocalVideos,
  getVideo,
  getVideoBlob,
  listVideos,
  localDb,
  saveVideo,
  type TLocalVideo,
} from '@web/lib/videos/local-store';

const owner: TBackupAccount = {
  id: 7,
  username: 'edith',
  firstName: 'Edith',
  lastName: 'Hughes',
  email: 'edith@example.test',
};

function makeRecipient(overrides: Partial<TRecipient> & Pick<TRecipient, 'id'>): TRecipient {
  return {
    firstName: 'Susan',
    lastName: 'Hughes',
    email: `kin-${overrides.id}@example.test`,
    category: 'next_of_kin',
    phoneNumber: '+44 20 7946 0018',
    relationship: 'Daughter',
    videoCount: 0,
    createdAt: '2026-11-01T10:00:00.000Z',
    ...overrides,
  };
}

const susan = makeRecipient({ id: 11 });
const tom = makeRecipient({ id: 12, firstName: 'Tom', lastName: 'Lee', category: 'friend' });
const recipients = [susan, tom];

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());

/** Large byte arrays are compared by their SHA-256: the same question, without a slow diff. */
const hashOf = (bytes: Uint8Array | undefined) => (bytes ? sha256(bytes) : 'missing');

async function hashOfLocalVideo(id: string): Promise<string> {
  const video = await getVideo(id);
  return video ? sha256(await bytesOf(await getVideoBlob(video))) : 'missing';
}

async function saveTestVideo(overrides: {
  recipientId: number;
  title: string;
  byteSize: number;
  creatorId?: number;
  mimeType?: string;
  createdAt?: string;
  promptId?: string | null;
}): Promise<{ video: TLocalVideo; bytes: Uint8Array }> {
  const bytes = new Uint8Array(randomBytes(overrides.byteSize));
  const video = await saveVideo({
    id: randomUUID(),
    creatorId: overrides.creatorId ?? owner.id,
    recipientId: overrides.recipientId,
    title: overrides.title,
    promptId: overrides.promptId ?? null,
    blob: new Blob([bytes], { type: overrides.mimeType ?? 'video/webm;codecs=vp8,opus' }),
    durationMs: 3000,
    createdAt: overrides.createdAt ?? new Date().toISOString(),
    indexedAt: '2026-11-20T10:00:00.000Z',
  });
  return { video, bytes };
}

/** Three videos for Edith (one over 4 MiB, so it crosses chunk and slice edges) and one of another account. */
async function saveHousehold() {
  const first = await saveTestVideo({
    recipientId: susan.id,
    title: 'For when you need me',
    byteSize: 5 * 1024 * 1024 + 123,
    createdAt: '2026-11-20T09:00:00.000Z',
    promptId: 'nok-why-you',
  });
  const second = await saveTestVideo({
    recipientId: tom.id,
    title: 'Our fishing trip',
    byteSize: 40_000,
    mimeType: 'video/mp4',
    createdAt: '2026-11-21T09:00:00.000Z',
  });
  const third = await saveTestVideo({
    recipientId: susan.id,
    title: 'Happy birthday',
    byteSize: 1500,
    createdAt: '2026-11-22T09:00:00.000Z',
  });
  const stranger = await saveTestVideo({
    creatorId: 99,
    recipientId: 500,
    title: 'Not Edith’s',
    byteSize: 800,
  });
  return { mine: [first, second, third], stranger };
}

function recordIndexCalls() {
  const calls: TCreateVideoIndexBody[] = [];
  const indexVideo = async (body: TCreateVideoIndexBody) => {
    calls.push(body);
    return body;
  };
  return { calls, indexVideo };
}

function restoreInput(file: Blob, overrides: Partial<TRestoreInput> = {}): TRestoreInput {
  return {
    file,
    account: { id: owner.id, username: owner.username },
    recipientIds: new Set(recipients.map((r) => r.id)),
    indexVideo: recordIndexCalls().indexVideo,
    ...overrides,
  };
}

async function makeBackup(type: TBackupType) {
  return createBackup({ type, account: owner, recipients, now: new Date(2026, 10, 22, 15, 30) });
}

async function unzip(blob: Blob) {
  return unzipSync(await bytesOf(blob));
}

function readManifest(files: Record<string, Uint8Array>): TBackupManifest {
  return JSON.parse(strFromU8(files['manifest.json'] ?? new Uint8Array())) as TBackupManifest;
}

/** Refusal messages are what the person reads, so the tests compare them word for word. */
async function expectRefusal(
  promise: Promise<unknown>,
  code: BackupError['code'],
  message: string,
) {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(BackupError);
  expect(error).toMatchObject({ code, message });
}

beforeEach(async () => {
  await Promise.all([localDb.videos.clear(), localDb.chunks.clear(), localDb.drafts.clear()]);
});

describe('full backup', () => {
  it('holds the manifest, the profile and every video of this account with its SHA-256', async () => {
    const { mine } = await saveHousehold();
    const backup = await makeBackup('full_backup');

    expect(backup.fileName).toBe('memento-backup-edith-2026-11-22.zip');
    expect(backup.videoCount).toBe(3);
    const files = await unzip(backup.blob!);
    expect(Object.keys(files).sort()).toEqual(
      [
        'manifest.json',
        'profile.json',
        `videos/${mine[0]!.video.id}.webm`,
        `videos/${mine[1]!.video.id}.mp4`,
        `videos/${mine[2]!.video.id}.webm`,
      ].sort(),
    );

    const manifest = readManifest(files);
    expect(manifest).toMatchObject({
      format: 'memento-backup',
      version: 2,
      type: 'full_backup',
      app: 'Memento',
      account: { id: 7, username: 'edith' },
    });
    expect(manifest.videos.map((v) => v.title)).toEqual([
      'For when you need me',
      'Our fishing trip',
      'Happy birthday',
    ]);
    for (const [index, { video, bytes }] of mine.entries()) {
      const entry = manifest.videos[index]!;
      expect(entry).toEqual({
        id: video.id,
        recipientId: video.recipientId,
        recipientName: video.recipientId === susan.id ? 'Susan Hughes' : 'Tom Lee',
        title: video.title,
        promptId: video.promptId,
        mimeType: video.mimeType,
        byteSize: bytes.length,
        durationMs: 3000,
        createdAt: video.createdAt,
        file: entry.file,
        sha256: sha256(bytes),
        release: { rule: 'now', at: null },
      });
      expect(hashOf(files[entry.file])).toBe(sha256(bytes));
    }
    // A family's zip tool (7-Zip, Windows, macOS) checks each file by the CRC-32 its directory
    // records, which the backup works out itself.
    const directory = await readZipDirectory(backup.blob!);
    for (const entry of manifest.videos) {
      expect(directory.get(entry.file)?.signature).toBe(crc32(files[entry.file]!));
    }

    const profile = JSON.parse(strFromU8(files['profile.json']!));
    expect(profile.account).toEqual({
      id: 7,
      username: 'edith',
      firstName: 'Edith',
      lastName: 'Hughes',
      email: 'edith@example.test',
    });
    expect(
      profile.recipients.map((r: TRecipient) => `${r.firstName} ${r.lastName} <${r.email}>`),
    ).toEqual(['Susan Hughes <kin-11@example.test>', 'Tom Lee <kin-12@example.test>']);
  });

  it('round-trips: after the browser data is gone, a restore brings every video back byte for byte and tells the index', async () => {
    const { mine, stranger } = await saveHousehold();
    const backup = await makeBackup('full_backup');
    await deleteLocalVideos(mine.map((m) => m.video.id));
    expect(await listVideos(owner.id)).toHaveLength(0);

    const { calls, indexVideo } = recordIndexCalls();
    const progress: number[] = [];
    const result = await restoreBackup(
      restoreInput(backup.blob!, {
        indexVideo,
        onProgress: ({ doneBytes, totalBytes }) => progress.push(doneBytes / totalBytes),
      }),
    );

    expect(result).toEqual({
      backupCreatedAt: new Date(2026, 10, 22, 15, 30).toISOString(),
      videoCount: 3,
      restored: 3,
      alreadyHere: 0,
      damagedTitles: [],
      withoutRecipient: [],
      notIndexed: 0,
    });
    expect(describeRestoreResult(result)).toEqual([
      'Restored 3 videos. None were already on this device.',
    ]);
    for (const { video, bytes } of mine) {
      const restored = await getVideo(video.id);
      expect(restored).toMatchObject({
        creatorId: owner.id,
        recipientId: video.recipientId,
        title: video.title,
        promptId: video.promptId,
        mimeType: video.mimeType,
        byteSize: video.byteSize,
        durationMs: video.durationMs,
        createdAt: video.createdAt,
      });
      expect(restored?.indexedAt).not.toBeNull();
      expect(await hashOfLocalVideo(video.id)).toBe(sha256(bytes));
    }
    expect(calls.map((body) => body.id).sort()).toEqual(mine.map((m) => m.video.id).sort());
    expect(calls.find((body) => body.id === mine[1]!.video.id)).toEqual({
      id: mine[1]!.video.id,
      recipientId: tom.id,
      storageType: 'local',
      syncStatus: 'local_only',
      metadata: { byteSize: 40_000, durationMs: 3000, mimeType: 'video/mp4' },
      createdAt: '2026-11-21T09:00:00.000Z',
      release: { rule: 'now', at: null },
    });
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(1);
    // The other account's video on this device was neither backed up nor touched.
    expect(await getVideo(stranger.video.id)).toMatchObject({ creatorId: 99 });
  });

  it('never saves a video twice: those already on this device are counted and skipped', async () => {
    const { mine } = await saveHousehold();
    const backup = await makeBackup('full_backup');
    const chunksBefore = await localDb.chunks.count();
    await deleteLocalVideos([mine[2]!.video.id]);

    const { calls, indexVideo } = recordIndexCalls();
    const result = await restoreBackup(restoreInput(backup.blob!, { indexVideo }));

    expect(result).toMatchObject({ restored: 1, alreadyHere: 2 });
    expect(describeRestoreResult(result)).toEqual([
      'Restored 1 video. 2 were already on this device.',
    ]);
    expect(calls.map((body) => body.id)).toEqual([mine[2]!.video.id]);
    expect(await listVideos(owner.id)).toHaveLength(3);
    expect(await localDb.chunks.count()).toBe(chunksBefore);

    const again = await restoreBackup(restoreInput(backup.blob!));
    expect(describeRestoreResult(again)).toEqual([
      'Restored 0 videos. 3 were already on this device.',
    ]);
    expect(await listVideos(owner.id)).toHaveLength(3);
  });
});

describe('the CRC-32 a zip records', () => {
  it('matches zlib’s for any length, any alignment, and when taken in pieces', () => {
    const bytes = randomBytes(70_001);
    for (const [start, end] of [
      [0, 0],
      [0, 1],
      [3, 20],
      [1, 64],
      [5, 70_001],
      [0, 70_000],
    ] as const) {
      const part = bytes.subarray(start, end);
      expect(updateCrc32(0, part)).toBe(crc32(part));
    }
    let crc = 0;
    for (let at = 0; at < bytes.length; at += 4097) {
      crc = updateCrc32(crc, bytes.subarray(at, at + 4097));
    }
    expect(crc).toBe(crc32(bytes));
  });
});

describe('videos only and profile only', () => {
  it('a videos-only backup has no profile and restores its videos', async () => {
    const { mine } = await saveHousehold();
    const backup = await makeBackup('videos_only');
    expect(backup.fileName).toBe('memento-backup-edith-2026-11-22-videos-only.zip');
    const files = await unzip(backup.blob!);
    expect(Object.keys(files)).not.toContain('profile.json');
    expect(readManifest(files)).toMatchObject({ type: 'videos_only' });
    expect(readManifest(files).videos).toHaveLength(3);

    await deleteLocalVideos(mine.map((m) => m.video.id));
    const result = await restoreBackup(restoreInput(backup.blob!));
    expect(result).toMatchObject({ restored: 3, alreadyHere: 0 });
    for (const { video, bytes } of mine) {
      expect(await hashOfLocalVideo(video.id)).toBe(sha256(bytes));
    }
  });

  it('a profile-only backup holds the account and recipients, no videos, and restore says so', async () => {
    await saveHousehold();
    const backup = await makeBackup('profile_only');
    expect(backup.fileName).toBe('memento-backup-edith-2026-11-22-profile-only.zip');
    expect(backup.videoCount).toBe(0);
    const files = await unzip(backup.blob!);
    expect(Object.keys(files)).toEqual(['manifest.json', 'profile.json']);
    expect(readManifest(files)).toMatchObject({ type: 'profile_only', videos: [] });

    const opened = await openBackup(backup.blob!);
    expect(opened.profile?.recipients.map((r) => r.firstName)).toEqual(['Susan', 'Tom']);
    await expectRefusal(
      restoreBackup(restoreInput(backup.blob!)),
      'profile_only',
      BACKUP_MESSAGES.profileOnly,
    );
  });
});

describe('what a restore refuses', () => {
  it('a video whose bytes do not match its SHA-256 is not saved; the others are', async () => {
    const { mine } = await saveHousehold();
    const backup = await makeBackup('full_backup');
    await deleteLocalVideos(mine.map((m) => m.video.id));

    // Flip one byte in the middle of 'Our fishing trip' inside the (uncompressed) zip.
    const zipBytes = await bytesOf(backup.blob!);
    const target = mine[1]!.bytes;
    const at = Buffer.from(zipBytes).indexOf(Buffer.from(target.subarray(0, 64)));
    expect(at).toBeGreaterThan(0);
    zipBytes[at + 20_000] = (zipBytes[at + 20_000]! + 1) % 256;

    const { calls, indexVideo } = recordIndexCalls();
    const result = await restoreBackup(restoreInput(new Blob([zipBytes]), { indexVideo }));

    expect(result).toMatchObject({ restored: 2, damagedTitles: ['Our fishing trip'] });
    expect(describeRestoreResult(result)).toEqual([
      'Restored 2 videos. None were already on this device.',
      '1 video was damaged in the backup file and could not be restored: "Our fishing trip".',
    ]);
    expect(await getVideo(mine[1]!.video.id)).toBeUndefined();
    expect(calls.map((body) => body.id)).not.toContain(mine[1]!.video.id);
    expect(await getVideo(mine[0]!.video.id)).toBeDefined();
  });

  it('a backup of another account is refused, naming that account, and nothing is saved', async () => {
    const { mine } = await saveHousehold();
    const backup = await makeBackup('full_backup');
    await deleteLocalVideos(mine.map((m) => m.video.id));

    await expectRefusal(
      restoreBackup(restoreInput(backup.blob!, { account: { id: 8, username: 'harold' } })),
      'other_account',
      'This backup belongs to another account (edith). Sign in as that account to restore it.',
    );
    // The same username on another installation is another account too.
    await expectRefusal(
      restoreBackup(restoreInput(backup.blob!, { account: { id: 70, username: 'edith' } })),
      'other_account',
      BACKUP_MESSAGES.otherAccount('edith'),
    );
    expect(await listVideos(owner.id)).toHaveLength(0);
  });

  it('files that are not Memento backups, or are damaged, get a plain message', async () => {
    await saveHousehold();
    const backup = await makeBackup('full_backup');
    const backupBytes = await bytesOf(backup.blob!);

    const notZip = new Blob(['Dear Susan, this is a letter, not a backup.']);
    await expectRefusal(openBackup(notZip), 'not_backup', BACKUP_MESSAGES.notBackup);
    await expectRefusal(openBackup(new Blob([])), 'not_backup', BACKUP_MESSAGES.notBackup);

    const otherZip = new Blob([zipSync({ 'holiday.jpg': new Uint8Array([1, 2, 3]) })]);
    await expectRefusal(openBackup(otherZip), 'not_backup', BACKUP_MESSAGES.notBackup);

    const foreignManifest = new Blob([
      zipSync({ 'manifest.json': new TextEncoder().encode('{"format":"something-else"}') }),
    ]);
    await expectRefusal(openBackup(foreignManifest), 'not_backup', BACKUP_MESSAGES.notBackup);

    // An interrupted download: the start of a backup without its end.
    const cutShort = new Blob([backupBytes.subarray(0, Math.floor(backupBytes.length / 2))]);
    await expectRefusal(openBackup(cutShort), 'damaged', BACKUP_MESSAGES.damaged);

    const brokenManifest = new Blob([
      zipSync({
        'manifest.json': new TextEncoder().encode(
          '{"format":"memento-backup","version":1,"videos":[{',
        ),
      }),
    ]);
    await expectRefusal(openBackup(brokenManifest), 'damaged', BACKUP_MESSAGES.damaged);

    const manifest = readManifest(unzipSync(backupBytes));
    const newer = new Blob([
      zipSync({
        'manifest.json': new TextEncoder().encode(JSON.stringify({ ...manifest, version: 3 })),
      }),
    ]);
    await expectRefusal(openBackup(newer), 'newer_version', BACKUP_MESSAGES.newerVersion);
  });

  it('a backup unzipped and zipped again inside a folder, compressed, still restores', async () => {
    const { mine } = await saveHousehold();
    const backup = await makeBackup('full_backup');
    await deleteLocalVideos(mine.map((m) => m.video.id));

    const files = await unzip(backup.blob!);
    const rezipped = zipSync(
      Object.fromEntries(
        Object.entries(files).map(([name, bytes]) => [`memento-backup-edith/${name}`, bytes]),
      ),
      { level: 6 },
    );
    const result = await restoreBackup(restoreInput(new Blob([rezipped])));
    expect(result).toMatchObject({ restored: 3, damagedTitles: [] });
    expect(await hashOfLocalVideo(mine[0]!.video.id)).toBe(sha256(mine[0]!.bytes));
  });
});

describe('recipients and the index', () => {
  it('a video for a recipient no longer on the server is kept on this device, not indexed, and named', async () => {
    const { mine } = await saveHousehold();
    const backup = await makeBackup('full_backup');
    await deleteLocalVideos(mine.map((m) => m.video.id));

    const { calls, indexVideo } = recordIndexCalls();
    const result = await restoreBackup(
      restoreInput(backup.blob!, { indexVideo, recipientIds: new Set([susan.id]) }),
    );

    expect(result.restored).toBe(3);
    expect(describeRestoreResult(result)).toEqual([
      'Restored 3 videos. None were already on this device.',
      '1 video was recorded for Tom Lee, who is no longer one of your recipients. It is kept safe on this device and will be in your next backup.',
    ]);
    expect(calls.map((body) => body.id)).not.toContain(mine[1]!.video.id);
    expect(await getVideo(mine[1]!.video.id)).toMatchObject({
      recipientId: tom.id,
      indexedAt: null,
    });
  });

  it('when the index cannot be told, the video is still saved and waits to be sent', async () => {
    const { mine } = await saveHousehold();
    const backup = await makeBackup('full_backup');
    await deleteLocalVideos(mine.map((m) => m.video.id));

    const result = await restoreBackup(
      restoreInput(backup.blob!, {
        recipientIds: null,
        indexVideo: () => Promise.reject(new Error('offline')),
      }),
    );
    expect(result).toMatchObject({ restored: 3, notIndexed: 3 });
    expect(describeRestoreResult(result)[1]).toBe(
      "3 videos are safe on this device but not yet in your account's list. Memento will try again the next time you open the home page.",
    );
    for (const { video } of mine)
      expect(await getVideo(video.id)).toMatchObject({ indexedAt: null });
  });
});

describe('handover export', () => {
  it("holds one recipient's videos as plain files named from date and title, and a Read me that plays them", async () => {
    const { mine } = await saveHousehold();
    const odd = await saveTestVideo({
      recipientId: susan.id,
      title: 'Love / from <Mum>: "always"',
      byteSize: 900,
      createdAt: '2026-11-22T11:00:00.000Z',
    });
    const twin = await saveTestVideo({
      recipientId: susan.id,
      title: 'Happy birthday',
      byteSize: 700,
      createdAt: '2026-11-22T12:00:00.000Z',
    });
    const videos = await listVideos(owner.id, susan.id);

    const handover = await createHandover({
      owner,
      recipient: susan,
      videos,
      now: new Date(2026, 10, 23),
    });

    expect(handover.fileName).toBe('Messages for Susan Hughes from Edith Hughes.zip');
    const day = (iso: string) => {
      const date = new Date(iso);
      return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
    };
    expect(handover.videoFileNames).toEqual([
      `${day(mine[0]!.video.createdAt)} For when you need me.webm`,
      `${day(mine[2]!.video.createdAt)} Happy birthday.webm`,
      `${day(odd.video.createdAt)} Love from Mum always.webm`,
      `${day(twin.video.createdAt)} Happy birthday (2).webm`,
    ]);

    const files = await unzip(handover.blob!);
    expect(Object.keys(files)).toEqual([README_FILE, ...handover.videoFileNames]);
    expect(hashOf(files[handover.videoFileNames[0]!])).toBe(sha256(mine[0]!.bytes));
    expect(hashOf(files[handover.videoFileNames[2]!])).toBe(sha256(odd.bytes));
    expect(hashOf(files[handover.videoFileNames[3]!])).toBe(sha256(twin.bytes));

    const readMe = strFromU8(files[README_FILE]!);
    expect(readMe).toContain('<h1>Video messages for Susan Hughes</h1>');
    expect(readMe).toContain('Edith Hughes recorded these 4 video messages for you with Memento.');
    for (const name of handover.videoFileNames) {
      expect(readMe).toContain(
        `<video controls preload="metadata" src="${encodeURIComponent(name)}"></video>`,
      );
    }
    // Titles are shown as text, never as markup.
    expect(readMe).toContain('<h2>Love / from &lt;Mum&gt;: &quot;always&quot;</h2>');
    expect(readMe).not.toContain('<Mum>');
  });
});
