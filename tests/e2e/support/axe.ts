import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';

/** Waits for transitions (dialogs fade and slide in) to end, so colours are measured as seen. */
export async function waitForStillness(page: Page) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          animation.effect?.getTiming().iterations === Infinity,
      ),
  );
}

declare global {
  interface Window {
    /** Set when an animation or transition starts; cleared before each scan. */
    __motionSinceScan?: boolean;
    __isWatchingMotion?: boolean;
  }
}

/**
 * Axe on a page that stood still for the whole scan. A scan takes a second or more on a busy
 * machine; a toast that closes by itself (its fade-out starts on a timer) can begin to fade in
 * that time, and axe then measures the colours of text half gone. Such a scan is thrown away and
 * the page scanned again once still: every verdict is on the page as it is seen at rest.
 */
async function scanWhenStill(page: Page) {
  for (let attempt = 1; ; attempt += 1) {
    await waitForStillness(page);
    await page.evaluate(() => {
      window.__motionSinceScan = false;
      if (window.__isWatchingMotion) return;
      window.__isWatchingMotion = true;
      for (const type of ['animationstart', 'transitionstart'])
        document.addEventListener(type, () => (window.__motionSinceScan = true), { capture: true });
    });
    const results = await new AxeBuilder({ page })
      .setLegacyMode(true)
      // Older eyes: body text at 7:1 and large text at 4.5:1 (WCAG AAA), beyond axe's defaults.
      // Text that passes it passes AA's 4.5:1 and 3:1 too, so AA's rule, which measures the same
      // colours of every text node again, is left out.
      .options({
        resultTypes: ['violations'],
        rules: {
          'color-contrast-enhanced': { enabled: true },
          'color-contrast': { enabled: false },
        },
      })
      .analyze();
    const moved = await page.evaluate(() => window.__motionSinceScan === true);
    if (!moved || attempt === 3) return results;
  }
}

/**
 * Runs axe (every rule it enables by default: WCAG 2.x A/AA and best practice, plus the enhanced
 * contrast of AAA) and fails on any serious or critical violation. Lesser findings are attached to the report to be read.
 *
 * Axe runs in the page itself (`axe.run`, AxeBuilder's legacy mode) rather than in parts that a
 * blank page of its own then merges (`runPartial`/`finishRun`): that extra page, with axe injected
 * into it too, was opened and closed for every scan and cost more CPU than the scan itself. The
 * two differ only for cross-origin frames, which the app has none of; the same rules find the
 * same violations on the same nodes.
 */
export async function expectNoSeriousViolations(page: Page, testInfo: TestInfo, label: string) {
  const { violations } = await scanWhenStill(page);
  const describe = (list: typeof violations) =>
    list.map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
  const blocking = violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  const minor = violations.filter((violation) => !blocking.includes(violation));
  if (minor.length > 0) {
    await testInfo.attach(`axe ${label} (moderate/minor)`, {
      body: JSON.stringify(describe(minor), null, 2),
      contentType: 'application/json',
    });
    testInfo.annotations.push({
      type: 'axe',
      description: `${label}: ${minor.map((violation) => `${violation.id} (${violation.impact})`).join(', ')}`,
    });
  }
  expect(describe(blocking), `serious or critical accessibility problems on ${label}`).toEqual([]);
  expect(await smallText(page), `text under 18 px on ${label}`).toEqual([]);
}

/**
 * Every piece of text on screen smaller than 18 px, as "tag: px: its first words" (the floor for
 * older eyes); text a person cannot see (screen-reader only, hidden, off-screen) is not counted.
 */
function smallText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found = new Set<string>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const element = node.parentElement;
      if (!text || !element || element.closest('.sr-only, [aria-hidden="true"]')) continue;
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
      if (box.bottom < 0 || box.right < 0) continue; // moved off-screen until focused
      const size = parseFloat(style.fontSize);
      if (size < 18) found.add(`${element.tagName.toLowerCase()}: ${size}: ${text.slice(0, 30)}`);
    }
    return [...found];
  });
}
