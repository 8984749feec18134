/**
 * The device fingerprint joins user agent, screen size, colour depth, language, timezone offset
 * and platform. The server stores it hashed; it only helps name the device.
 */
export function buildFingerprint(): string {
  const { userAgent, language, platform } = window.navigator;
  const { width, height, colorDepth } = window.screen;
  return [
    userAgent,
    `${width}x${height}`,
    String(colorDepth),
    language,
    String(new Date().getTimezoneOffset()),
    platform,
  ].join('|');
}
