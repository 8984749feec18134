// Renders the app's icons (the web app manifest's and the Apple touch icon) from the mark in
// src/web/public/favicon.svg, in Chromium, into src/web/public/icons/. Run by hand when the mark
// changes: `node scripts/render-icons.mjs`; the PNGs are committed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mark = readFileSync(path.join(root, 'src/web/public/favicon.svg'), 'utf8');
const outDir = path.join(root, 'src/web/public/icons');
const heart = mark.match(/<path [^>]*\/>/)?.[0];
if (!heart) throw new Error('favicon.svg has no <path> for the heart');

/** The mark on a full square: a maskable icon is cut to any shape, so its heart keeps inside the middle 80 % circle. */
function fullBleed(heartScale) {
  const offset = 32 - 32 * heartScale;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#0f5e5a"/><g transform="translate(${offset} ${offset}) scale(${heartScale})">${heart}</g></svg>`;
}

const icons = [
  { name: 'icon-192.png', size: 192, svg: mark },
  { name: 'icon-512.png', size: 512, svg: mark },
  { name: 'icon-maskable-512.png', size: 512, svg: fullBleed(1.15) },
  // iOS rounds the corners itself and shows transparency as black.
  { name: 'apple-touch-icon.png', size: 180, svg: fullBleed(1) },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
});
try {
  for (const icon of icons) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    const svg = icon.svg.replace('<svg ', `<svg width="${icon.size}" height="${icon.size}" `);
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${svg}</body></html>`,
    );
    await page.screenshot({ path: path.join(outDir, icon.name), omitBackground: true });
    await page.close();
  }
} finally {
  await browser.close();
}
