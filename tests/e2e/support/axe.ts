import path from 'node:path';
import axe from 'axe-core';
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
    /** axe-core, once injected into the document. */
    axe?: typeof axe;
  }
}

/** What a scan keeps of each violation: enough to name it and find its nodes. */
interface TViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Axe's options: only violations reported, and contrast for older eyes: body text at 7:1 and large
 * text at 4.5:1 (WCAG AAA), beyond axe's defaults. Axe's AAA rule reports only text between the
 * two levels (4.5–7:1, large 3–4.5:1) and leaves anything paler to the AA rule, so both run.
 */
const AXE_OPTIONS = {
  resultTypes: ['violations'],
  rules: { 'color-contrast-enhanced': { enabled: true } },
};

/**
 * Axe in the page itself (`axe.run`): injected once a document (a full load brings a new one),
 * and only what the check reads comes back. AxeBuilder (@axe-core/playwright) sent and compiled
 * its 580 KB source twice a scan and returned every result whole; its legacy mode runs the same
 * `axe.run` with the same rules on the same document, which has no frames from other origins.
 */
async function runAxe(page: Page): Promise<TViolation[]> {
  if (!(await page.evaluate(() => typeof window.axe?.run === 'function'))) {
    await page.evaluate(axe.source);
  }
  return page.evaluate(async (options) => {
    const results = await window.axe!.run(document, options as axe.RunOptions);
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? null,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
  }, AXE_OPTIONS);
}

/**
 * Axe on a page that stood still for the whole scan. A scan takes a second or more on a busy
 * machine; a toast that closes by itself (its fade-out starts on a timer) can begin to fade in
 * that time, and axe then measures the colours of text half gone. Such a scan is thrown away and
 * the page scanned again once still: every verdict is on the page as it is seen at rest.
 */
async function scanWhenStill(page: Page): Promise<TViolation[]> {
  for (let attempt = 1; ; attempt += 1) {
    await waitForStillness(page);
    await page.evaluate(() => {
      window.__motionSinceScan = false;
      if (window.__isWatchingMotion) return;
      window.__isWatchingMotion = true;
      for (const type of ['animationstart', 'transitionstart'])
        document.addEventListener(type, () => (window.__motionSinceScan = true), { capture: true });
    });
    const violations = await runAxe(page);
    const moved = await page.evaluate(() => window.__motionSinceScan === true);
    if (!moved || attempt === 3) return violations;
  }
}

/**
 * Runs axe (every rule it enables by default: WCAG 2.x A/AA and best practice, plus the enhanced
 * contrast of AAA) and fails on any serious or critical violation. Lesser findings are attached to the report to be read.
 *
 * Axe runs whole in the page (`axe.run`) rather than in parts that a blank page of its own then
 * merges (`runPartial`/`finishRun`): that extra page, with axe injected into it too, was opened
 * and closed for every scan and cost more CPU than the scan itself. The two differ only for
 * cross-origin frames, which the app has none of; the same rules find the same violations on the
 * same nodes.
 */
export async function expectNoSeriousViolations(page: Page, testInfo: TestInfo, label: string) {
  const violations = await scanWhenStill(page);
  const describe = (list: TViolation[]) =>
    list.map(({ id, ...violation }) => ({ rule: id, ...violation }));
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

/**
 * With E2E_SHOTS_DIR set (a person about to look at the screens), a full-page screenshot named
 * after the screen and the viewport; otherwise nothing.
 */
export async function saveShotIfAsked(page: Page, name: string) {
  const shots = process.env.E2E_SHOTS_DIR;
  const viewport = page.viewportSize();
  if (!shots || !viewport) return;
  await page.screenshot({
    path: path.join(shots, `${name}-${viewport.width}x${viewport.height}.png`),
    fullPage: true,
  });
}
