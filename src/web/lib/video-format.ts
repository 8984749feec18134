/** How a recorded video's type, file name and length are written, wherever a video is shown or saved. */

/** Data that is not of a video type is taken to be WebM. */
export function normaliseVideoType(type: string): string {
  return type.startsWith('video/') ? type : 'video/webm';
}

export function isWebm(type: string): boolean {
  return type.startsWith('video/webm');
}

export function fileExtensionFor(type: string): 'webm' | 'mp4' {
  return type.startsWith('video/mp4') ? 'mp4' : 'webm';
}

/** 75 000 ms → "1:15". */
export function formatClock(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** 60 → "1 minute", 300 → "5 minutes", 90 → "1 minute 30 seconds". */
export function describeSeconds(total: number): string {
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  const parts: string[] = [];
  if (minutes > 0) parts.push(`${minutes} minute${minutes === 1 ? '' : 's'}`);
  if (seconds > 0 || minutes === 0) parts.push(`${seconds} second${seconds === 1 ? '' : 's'}`);
  return parts.join(' ');
}
