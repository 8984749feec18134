/**
 * Recorder constants and the choice of container. Chromium and Firefox record WebM (VP8
 * and Opus); Safari and iOS record MP4. The first type `MediaRecorder.isTypeSupported` accepts is
 * used, so a browser that gains a format keeps working.
 */
export const COUNTDOWN_SECONDS = 3;
/** Seconds before the plan's maximum at which the recorder warns gently. */
export const WARNING_BEFORE_END_SECONDS = 10;
/** If MediaRecorder never reports `stop`, finish with what was captured. */
export const STOP_SAFETY_TIMEOUT_MS = 2000;

const WEBM_TYPES = ['video/webm;codecs=vp8,opus', 'video/webm;codecs=vp9,opus', 'video/webm'];
const MP4_TYPES = ['video/mp4;codecs=avc1,mp4a.40.2', 'video/mp4;codecs=avc1,opus', 'video/mp4'];

export function isSafariOrIos(userAgent: string): boolean {
  const isIos = /iPad|iPhone|iPod/.test(userAgent);
  const isSafari = /^((?!chrome|android|crios|fxios|edg).)*safari/i.test(userAgent);
  return isIos || isSafari;
}

/** An Android tablet is Android with a screen of at least 600×600. */
export function isAndroidTablet(userAgent: string, screen: { width: number; height: number }) {
  return /android/i.test(userAgent) && screen.width >= 600 && screen.height >= 600;
}

/** Safari hands over smaller slices so a stop loses less: 100 ms there, else 1 s. */
export function timesliceFor(userAgent: string): number {
  return isSafariOrIos(userAgent) ? 100 : 1000;
}

export function pickRecordingMimeType(
  userAgent: string,
  isTypeSupported: (type: string) => boolean,
): string | null {
  const order = isSafariOrIos(userAgent)
    ? [...MP4_TYPES, ...WEBM_TYPES]
    : [...WEBM_TYPES, ...MP4_TYPES];
  return order.find((type) => isTypeSupported(type)) ?? null;
}
