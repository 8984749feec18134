// Which Chromium the browser tests drive (DESIGN.md §3): CHROMIUM_PATH, else the system
// package's /usr/bin/chromium, else a browser Playwright installed itself. Nothing here
// downloads a browser.
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/** @returns {{ path: string, source: string } | null} */
export function findChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return existsSync(fromEnv) ? { path: fromEnv, source: 'CHROMIUM_PATH' } : null;
  if (existsSync(SYSTEM_CHROMIUM)) return { path: SYSTEM_CHROMIUM, source: 'system package' };
  const bundled = chromium.executablePath();
  if (bundled && existsSync(bundled)) return { path: bundled, source: 'Playwright download' };
  return null;
}

export const HOW_TO_GET_CHROMIUM = [
  'The browser tests need Chromium, and none was found.',
  '',
  '  Debian/Ubuntu:      sudo apt-get install -y chromium',
  '  Any system:         npx playwright install chromium',
  '  Already have one:   CHROMIUM_PATH=/path/to/chromium npm run test:e2e',
].join('\n');
