import { defineConfig } from '@playwright/test';
import base from './playwright.config';

// Measurements, not tests: `npm run bench:recording` prints numbers and asserts no timings.
// Same server and Chromium set-up as the browser tests (production build, fake camera).
export default defineConfig({
  ...base,
  testDir: 'tests/bench',
  testMatch: '**/*.bench.ts',
  workers: 1,
  timeout: 300_000,
});
