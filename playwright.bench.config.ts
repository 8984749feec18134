import { defineConfig } from '@playwright/test';
import base, { CHROMIUM_ARGS } from './playwright.config';

// Measurements, not tests: `npm run bench:recording` prints numbers and asserts no timings.
// Same server and Chromium set-up as the browser tests (production build, fake camera), but
// Chromium's own fake camera at full size (1280 × 720) rather than the tests' small one.
export default defineConfig({
  ...base,
  testDir: 'tests/bench',
  testMatch: '**/*.bench.ts',
  workers: 1,
  timeout: 300_000,
  use: { ...base.use, launchOptions: { ...base.use?.launchOptions, args: CHROMIUM_ARGS } },
});
