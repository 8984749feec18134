import type { FixWebmDurationFunction as TFixWebmDuration } from 'fix-webm-duration';
import { isWebm } from '@web/lib/video-format';
import { addSeekIndex } from './webm-seek-index';

let loading: Promise<TFixWebmDuration | null> | undefined;

/**
 * Fetches the WebM repairer, once: the recorder calls it when the camera turns on, so the Record
 * page opens without it and a recording's end does not wait for it. Null if it could not be
 * fetched.
 */
export function loadRepairer(): Promise<TFixWebmDuration | null> {
  loading ??= import('fix-webm-duration').then(
    (module) => module.default,
    () => {
      loading = undefined;
      return null;
    },
  );
  return loading;
}

/** MediaRecorder's WebM has no length or seek index until repaired. */
export async function repairForPlayback(blob: Blob, durationMs: number): Promise<Blob> {
  if (!isWebm(blob.type)) return blob;
  const fixWebmDuration = await loadRepairer();
  // Offline before the repairer arrived: a preview without a seek index beats no preview.
  if (!fixWebmDuration) return blob;
  return addSeekIndex(await fixWebmDuration(blob, durationMs, { logger: false }));
}
