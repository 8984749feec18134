import { fileExtensionFor, formatClock } from '@web/lib/video-format';
import { getVideoBlob, type TLocalVideo } from '@web/lib/videos/local-store';
import type { TArchiveTarget } from './backup-archive';
import { runBackupOp } from './backup-client';
import { formatLocalDate, makeSafeFileName } from './backup-manifest';
import type { TByteProgress } from './create-backup';
import { lazyDateFormat } from '@web/lib/date-format';

export const README_FILE = 'Read me.html';
/** In a sealed handover the page that plays the messages is sealed with them. */
export const SEALED_PLAYER_FILE = 'Watch the messages.html';

interface TPerson {
  firstName: string;
  lastName: string;
}

export interface TCreateHandoverInput {
  owner: TPerson;
  recipient: TPerson;
  videos: readonly TLocalVideo[];
  now?: Date;
  /** Seals the messages with WinZip AES-256; only the how-to-open page stays readable. */
  passphrase?: string | null;
  hint?: string | null;
  target?: TArchiveTarget;
  onProgress?: (progress: TByteProgress) => void;
}

export interface TCreatedHandover {
  /** Null when the file went straight into the file the person chose. */
  blob: Blob | null;
  fileName: string;
  /** The video files' names inside the zip, oldest first. */
  videoFileNames: string[];
}

/** Why a message stays out of a handover: it is not open for its recipient yet. */
export type THeldBackReason = 'legacy' | 'date';

/**
 * Whether the recipient may watch this message now. A handover file leaves the app's release
 * rules behind, so a message that opens later (on a date, or with the legacy) never goes in.
 */
export function heldBackReason(video: TLocalVideo, now: Date): THeldBackReason | null {
  const release = video.release;
  if (!release || release.rule === 'now') return null;
  if (release.rule === 'legacy') return 'legacy';
  const opensAt = release.at ? Date.parse(release.at) : NaN;
  return Number.isFinite(opensAt) && opensAt <= now.getTime() ? null : 'date';
}

/** The messages a handover may hold, and how many stay out for each reason. */
export function splitForHandover(videos: readonly TLocalVideo[], now: Date) {
  const open: TLocalVideo[] = [];
  const heldBack: Record<THeldBackReason, number> = { legacy: 0, date: 0 };
  for (const video of videos) {
    const reason = heldBackReason(video, now);
    if (reason) heldBack[reason] += 1;
    else open.push(video);
  }
  return { open, heldBack };
}

const fullName = (person: TPerson) => `${person.firstName} ${person.lastName}`.trim();

const longDate = lazyDateFormat('en-GB', { dateStyle: 'long' });

function formatLongDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? 'an unknown date' : longDate.format(date);
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * "2026-11-22 For when you need me.webm", unique within the zip. Sealed, the names stay readable
 * (the zip format does not hide them), so they say nothing: "Message 01.webm".
 */
function makeVideoFileNames(videos: readonly TLocalVideo[], isSealed: boolean): string[] {
  if (isSealed) {
    const width = String(videos.length).length < 2 ? 2 : String(videos.length).length;
    return videos.map(
      (video, index) =>
        `Message ${String(index + 1).padStart(width, '0')}.${fileExtensionFor(video.mimeType)}`,
    );
  }
  const used = new Set<string>();
  return videos.map((video) => {
    const date = new Date(video.createdAt);
    const day = Number.isNaN(date.getTime()) ? 'Undated' : formatLocalDate(date);
    const base = `${day} ${makeSafeFileName(video.title, 'Message')}`;
    const extension = fileExtensionFor(video.mimeType);
    let name = `${base}.${extension}`;
    for (let copy = 2; used.has(name.toLowerCase()); copy += 1)
      name = `${base} (${copy}).${extension}`;
    used.add(name.toLowerCase());
    return name;
  });
}

/**
 * The page a family opens on any computer, without Memento: who recorded the messages for whom,
 * and each one playable beside its file.
 */
export function buildReadMe(input: {
  owner: TPerson;
  recipient: TPerson;
  videos: readonly TLocalVideo[];
  fileNames: readonly string[];
  now: Date;
}): string {
  const owner = escapeHtml(fullName(input.owner));
  const recipient = escapeHtml(fullName(input.recipient));
  const count = input.videos.length;
  const messages = `${count} video message${count === 1 ? '' : 's'}`;
  const items = input.videos
    .map((video, index) => {
      const file = input.fileNames[index] ?? '';
      const title = escapeHtml(video.title.trim() || 'A message');
      return `    <section>
      <h2>${title}</h2>
      <p class="when">Recorded on ${escapeHtml(formatLongDate(video.createdAt))} &middot; ${formatClock(video.durationMs)} long</p>
      <video controls preload="metadata" src="${escapeHtml(encodeURIComponent(file))}"></video>
      <p class="file">File: ${escapeHtml(file)}</p>
    </section>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Video messages from ${owner} for ${recipient}</title>
    <style>
      body { margin: 0 auto; max-width: 46rem; padding: 1.5rem; font: 1.25rem/1.6 system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; color: #231f1c; background: #fbf8f3; }
      h1 { font-size: 2rem; line-height: 1.25; color: #0f5e5a; }
      h2 { margin: 0 0 0.25rem; font-size: 1.5rem; }
      section { margin: 2rem 0; padding: 1.25rem; border: 1px solid #e4dbce; border-radius: 1rem; background: #fff; }
      video { display: block; width: 100%; margin: 0.75rem 0; border-radius: 0.5rem; background: #000; }
      .when, .file, footer { color: #5b5249; font-size: 1.05rem; }
      .note { padding: 1rem; border-radius: 0.75rem; background: #f6ead6; }
    </style>
  </head>
  <body>
    <h1>Video messages for ${recipient}</h1>
    <p>${owner} recorded ${count === 1 ? 'this video message' : `these ${messages}`} for you with Memento.</p>
    <p>They are ordinary video files, kept beside this page. You can watch them here, on any computer, without an account or an internet connection. Copy the whole folder to keep them safe.</p>
    <p class="note">If the videos do not play, the folder may still be packed: unzip (extract) it first, then open this page again. A video that still will not play can be opened on its own with a free video player such as VLC.</p>
${items}
    <footer>Saved from Memento on ${escapeHtml(longDate.format(input.now))}.</footer>
  </body>
</html>
`;
}

const PAGE_STYLE = `body { margin: 0 auto; max-width: 46rem; padding: 1.5rem; font: 1.25rem/1.6 system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; color: #231f1c; background: #fbf8f3; }
      h1 { font-size: 2rem; line-height: 1.25; color: #0f5e5a; }
      h2 { margin: 1.5rem 0 0.25rem; font-size: 1.5rem; }
      .note { padding: 1rem; border-radius: 0.75rem; background: #f6ead6; }`;

/**
 * The one page a sealed handover leaves readable: whose messages these are and how to open them
 * with the passphrase, with free tools on any computer. It names no message.
 */
export function buildSealedReadMe(input: {
  owner: TPerson;
  recipient: TPerson;
  count: number;
  hint: string | null;
}): string {
  const owner = escapeHtml(fullName(input.owner));
  const recipient = escapeHtml(fullName(input.recipient));
  const messages = input.count === 1 ? 'a video message' : `${input.count} video messages`;
  const hint = input.hint?.trim()
    ? `<p class="note">A reminder of the passphrase, left by ${owner}: ${escapeHtml(input.hint.trim())}</p>`
    : '';
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>How to open the video messages for ${recipient}</title>
    <style>
      ${PAGE_STYLE}
    </style>
  </head>
  <body>
    <h1>Video messages for ${recipient}</h1>
    <p>${owner} recorded ${messages} for you with Memento and protected ${input.count === 1 ? 'it' : 'them'} with a passphrase. Without the passphrase nobody can watch ${input.count === 1 ? 'it' : 'them'}.</p>
    ${hint}
    <h2>How to open them</h2>
    <p><strong>On Windows:</strong> install the free 7-Zip from 7-zip.org. Right-click this zip file, choose 7-Zip, then "Extract Here", and type the passphrase when asked.</p>
    <p><strong>On a Mac:</strong> install the free The Unarchiver or Keka from the App Store. Open this zip file with it and type the passphrase when asked.</p>
    <p><strong>On Linux:</strong> run <code>7z x</code> with the name of this file, and type the passphrase when asked.</p>
    <p>Then open "${SEALED_PLAYER_FILE}" in the folder you unpacked, to watch every message in your web browser without an account or an internet connection. Copy the whole folder to keep them safe.</p>
  </body>
</html>
`;
}

/**
 * The handover export: one recipient's videos as plain files with a page that plays them. How a
 * next of kin passes messages on from a Community Edition device, where the videos exist nowhere
 * else. Only messages already open for the recipient go in (`splitForHandover`).
 */
export async function createHandover(input: TCreateHandoverInput): Promise<TCreatedHandover> {
  const now = input.now ?? new Date();
  const videos = [...input.videos].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const isSealed = Boolean(input.passphrase);
  const totalBytes = videos.reduce((sum, video) => sum + video.byteSize, 0);
  const fileNames = makeVideoFileNames(videos, isSealed);
  const player = buildReadMe({ ...input, videos, fileNames, now });
  const texts = isSealed
    ? [
        {
          name: README_FILE,
          text: buildSealedReadMe({ ...input, count: videos.length, hint: input.hint ?? null }),
          isPlain: true,
        },
        { name: SEALED_PLAYER_FILE, text: player },
      ]
    : [{ name: README_FILE, text: player }];
  const files = [];
  for (const [index, video] of videos.entries()) {
    files.push({
      name: fileNames[index] ?? `${video.id}.webm`,
      blob: await getVideoBlob(video),
      createdAt: video.createdAt,
    });
  }
  let doneBytes = 0;
  input.onProgress?.({ doneBytes, totalBytes });
  const blob = await runBackupOp(
    'writeFiles',
    {
      texts,
      files,
      createdAt: now.toISOString(),
      passphrase: input.passphrase || null,
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
    fileName: makeHandoverFileName(input.owner, input.recipient),
    videoFileNames: fileNames,
  };
}

export function makeHandoverFileName(owner: TPerson, recipient: TPerson): string {
  return `${makeSafeFileName(`Messages for ${fullName(recipient)} from ${fullName(owner)}`, 'Messages', 120)}.zip`;
}
