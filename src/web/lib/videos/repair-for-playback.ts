import { isWebm } from '@web/lib/video-format';

/** Gives a finished recording its length, then its seek index. */
type TRepair = (blob: Blob, durationMs: number) => Promise<Blob>;

let loading: Promise<TRepair | null> | undefined;

/**
 * Fetches the WebM repairer and the seek index, once: the recorder calls it when the camera
 * turns on, so the Record page opens without them and a recording's end does not wait for them.
 * Null if they could not be fetched.
 */
export function loadRepairer(): Promise<TRepair | null> {
  loading ??= Promise.all([import('fix-webm-duration'), import('./webm-seek-index')]).then(
    ([duration, index]): TRepair =>
      async (blob, durationMs) =>
        index.addSeekIndex(await duration.default(blob, durationMs, { logger: false })),
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
  const repair = await loadRepairer();
  // Offline before the repairer arrived: a preview without a seek index beats no preview.
  return repair ? repair(blob, durationMs) : blob;
}
