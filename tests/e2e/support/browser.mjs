// Which Chromium the browser tests drive: CHROMIUM_PATH, else the system package's
// /usr/bin/chromium, else a browser Playwright installed itself. Nothing here downloads a browser.
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

/** The features Playwright 1.65.1 turns off in its own `--disable-features` (chromiumSwitches). */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * The address bar's popup, a page of Chromium's own (chrome://omnibox-popup.top-chrome) that
 * every new window loads ahead of time in a renderer of its own. Each browser context of a test
 * (a device) opens a window, and its popup cost most of a new context's CPU (docs/benchmarks.md,
 * 'CI time'), for an address bar a headless browser never shows.
 */
const ADDRESS_BAR_POPUP_FEATURES = [
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
  'WebUIOmniboxFullPopup',
];

/**
 * One `--disable-features` for Chromium: it keeps only the last one it is given, so this one
 * repeats Playwright's own list (tests/unit/chromium-switches.test.ts checks it against the
 * installed Playwright) and adds the address bar's popup.
 */
export const DISABLE_FEATURES_SWITCH = `--disable-features=${[
  ...PLAYWRIGHT_DISABLED_FEATURES,
  ...ADDRESS_BAR_POPUP_FEATURES,
].join(',')}`;

export const HOW_TO_GET_CHROMIUM = [
  'The browser tests need Chromium, and none was found.',
  '',
  '  Debian/Ubuntu:      sudo apt-get install -y chromium',
  '  Any system:         npx playwright install chromium',
  '  Already have one:   CHROMIUM_PATH=/path/to/chromium npm run test:e2e',
].join('\n');
