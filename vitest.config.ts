import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// API and unit tests. Each PGlite instance holds ~300 MB, so workers are capped.
export default defineConfig({
  resolve: {
    alias: {
      '@shared': fromRoot('./src/shared'),
      '@web': fromRoot('./src/web'),
    },
  },
  test: {
    include: ['tests/api/**/*.test.ts', 'tests/unit/**/*.test.ts'],
    globalSetup: ['tests/setup/global-setup.ts'],
    environment: 'node',
    maxWorkers: 4,
    // Each test file opens its PGlite databases (WebAssembly) in a process of its own. V8's
    // baseline compiler alone, as the server itself runs PGlite (src/server/db/client.ts), spares
    // each one the optimising recompile it would not live long enough to repay: the PGlite-heavy
    // files took 15-25 % less CPU (decision 031).
    execArgv: ['--liftoff-only'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
