import { fileExtensionFor, formatClock } from '@web/lib/video-format';
import { getVideoBlob, type TLocalVideo } from '@web/features/videos';
import { BACKUP_MESSAGES, BackupError, formatLocalDate, makeSafeFileName } from './backup-manifest';
import { MAX_ZIP_BYTES, ZipBlobWriter } from './zip-writer';

export const README_FILE = 'Read me.html';

interface TPerson {
  firstName: string;
  lastName: string;
}

export interface TCreateHandoverInput {
  owner: TPerson;
  recipient: TPerson;
  videos: readonly TLocalVideo[];
  now?: Date;
  onProgress?: (fraction: number) => void;
}

export interface TCreatedHandover {
  blob: Blob;
  fileName: string;
  /** The video files' names inside the zip, oldest first. */
  videoFileNames: string[];
}

const fullName = (person: TPerson) => `${person.firstName} ${person.lastName}`.trim();

const longDate = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long' });

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

/** "2026-11-22 For when you need me.webm", unique within the zip. */
function makeVideoFileNames(videos: readonly TLocalVideo[]): string[] {
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

/**
 * The handover export: one recipient's videos as plain files named from title and date, with a
 * 'Read me.html' that plays them. How a next of kin passes messages on from a Community Edition
 * device, where the videos exist nowhere else.
 */
export async function createHandover(input: TCreateHandoverInput): Promise<TCreatedHandover> {
  const now = input.now ?? new Date();
  const videos = [...input.videos].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const totalBytes = videos.reduce((sum, video) => sum + video.byteSize, 0);
  if (totalBytes > MAX_ZIP_BYTES) throw new BackupError('too_large', BACKUP_MESSAGES.tooLarge);

  const fileNames = makeVideoFileNames(videos);
  const zip = new ZipBlobWriter();
  zip.addText(README_FILE, buildReadMe({ ...input, videos, fileNames, now }), now);
  let doneBytes = 0;
  input.onProgress?.(0);
  for (const [index, video] of videos.entries()) {
    await zip.addBlob(fileNames[index] ?? `${video.id}.webm`, await getVideoBlob(video), {
      date: new Date(video.createdAt),
      onBytes: (bytes) => {
        doneBytes += bytes;
        input.onProgress?.(totalBytes === 0 ? 1 : Math.min(1, doneBytes / totalBytes));
      },
    });
  }
  const blob = await zip.finish();
  input.onProgress?.(1);
  const fileName = `${makeSafeFileName(`Messages for ${fullName(input.recipient)} from ${fullName(input.owner)}`, 'Messages', 120)}.zip`;
  return { blob, fileName, videoFileNames: fileNames };
}
