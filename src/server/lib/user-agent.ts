import { UAParser } from 'ua-parser-js';

/** 'Chrome on macOS', 'Safari on iPad' … shown to people in device lists. */
export function describeUserAgent(userAgent: string | undefined): {
  deviceName: string;
  platform: string;
} {
  if (!userAgent) return { deviceName: 'Unknown browser', platform: 'web' };
  const parsed = UAParser(userAgent);
  const browser = parsed.browser.name ?? 'Browser';
  const model = parsed.device.model && parsed.device.vendor ? parsed.device.model : undefined;
  const system = model ?? parsed.os.name ?? 'unknown system';
  return { deviceName: `${browser} on ${system}`.slice(0, 120), platform: 'web' };
}
