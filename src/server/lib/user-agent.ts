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

const MAX_REMEMBERED = 500;
const remembered = new Map<string, string | null>();

/**
 * 'Chrome on Linux' for a log line, or null when the browser is unknown. Parsing a user agent is
 * slow next to everything else a request does, and a family's log holds a handful of distinct
 * ones, so answers are remembered (at most 500, then started afresh).
 */
export function describeBrowser(userAgent: string): string | null {
  const known = remembered.get(userAgent);
  if (known !== undefined) return known;
  const { browser, os } = UAParser(userAgent);
  const description = browser.name ? `${browser.name}${os.name ? ` on ${os.name}` : ''}` : null;
  if (remembered.size >= MAX_REMEMBERED) remembered.clear();
  remembered.set(userAgent, description);
  return description;
}
