import Bowser from 'bowser';

interface Parsed {
  browser: string | undefined;
  system: string | undefined;
  /** 'iPhone', 'iPad', … where the user agent names the device. */
  model: string | undefined;
}

function parse(userAgent: string): Parsed {
  // Bowser refuses an empty string; a blank user agent names nothing.
  if (!userAgent.trim()) return { browser: undefined, system: undefined, model: undefined };
  const { browser, os, platform } = Bowser.parse(userAgent);
  return {
    browser: browser.name || undefined,
    system: os.name || undefined,
    model: platform.model || undefined,
  };
}

/** 'Chrome on macOS', 'Safari on iPad' … shown to people in device lists. */
export function describeUserAgent(userAgent: string | undefined): {
  deviceName: string;
  platform: string;
} {
  if (!userAgent) return { deviceName: 'Unknown browser', platform: 'web' };
  const { browser, system, model } = parse(userAgent);
  const where = model ?? system ?? 'unknown system';
  return { deviceName: `${browser ?? 'Browser'} on ${where}`.slice(0, 120), platform: 'web' };
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
  const { browser, system } = parse(userAgent);
  const description = browser ? `${browser}${system ? ` on ${system}` : ''}` : null;
  if (remembered.size >= MAX_REMEMBERED) remembered.clear();
  remembered.set(userAgent, description);
  return description;
}
