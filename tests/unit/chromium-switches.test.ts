import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DISABLE_FEATURES_SWITCH, PLAYWRIGHT_DISABLED_FEATURES } from '../e2e/support/browser.mjs';

/** The features the installed Playwright turns off, read from the code that starts Chromium. */
function featuresPlaywrightDisables(): string[] {
  const playwrightCore = path.dirname(
    createRequire(import.meta.url).resolve('playwright-core/package.json'),
  );
  const source = readFileSync(path.join(playwrightCore, 'lib/coreBundle.js'), 'utf8');
  const list = /disabledFeatures = \[([\s\S]*?)\]\.filter\(Boolean\)/.exec(source);
  if (!list?.[1]) throw new Error('playwright-core no longer lists its disabled features this way');
  return [...list[1].matchAll(/^\s*"([A-Za-z0-9]+)"/gm)].map((match) => match[1] ?? '');
}

describe('the browser tests’ Chromium switches', () => {
  // Chromium keeps only the last --disable-features: the tests' own must not drop Playwright's.
  it('keep every feature the installed Playwright turns off', () => {
    const playwrights = featuresPlaywrightDisables();
    expect(playwrights.length).toBeGreaterThan(5);
    expect(PLAYWRIGHT_DISABLED_FEATURES).toEqual(playwrights);
    const ours = DISABLE_FEATURES_SWITCH.replace('--disable-features=', '').split(',');
    expect(ours).toEqual(expect.arrayContaining([...playwrights, 'WebUIOmniboxPopup']));
  });
});
