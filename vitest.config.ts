import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The longest files of the run: those that start and stop whole servers one after another, and
 * the malformed-input run (ten thousand requests on one app).
 */
const SERIAL_SERVER_FILES = [
  '/server-lifecycle.test.ts',
  '/data-dir.test.ts',
  '/malformed-input.test.ts',
];

/**
 * Vitest queues the longest files first from its cache of the last run, but a clean checkout (CI)
 * has none and queues the largest files first. These files then start late and run alone on one
 * core: queued first, they run beside the rest.
 */
class SerialServerFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const isSerial = (file: TestSpecification) =>
      SERIAL_SERVER_FILES.some((name) => file.moduleId.endsWith(name));
    return [...sorted.filter(isSerial), ...sorted.filter((file) => !isSerial(file))];
  }
}

// API and unit tests. Each PGlite instance holds ~300 MB, so workers are capped.
export default defineConfig({
  resolve: {
    alias: {
      '@shared': fromRoot('./src/shared'),
      '@web': fromRoot('./src/web'),
    },
  },
  test: {
    // The unit tests touch no database, so a run for another engine (`ENGINE_TESTS_ONLY=1`, as
    // CI's PostgreSQL run) leaves them out.
    include:
      process.env.ENGINE_TESTS_ONLY === '1'
        ? ['tests/api/**/*.test.ts']
        : ['tests/api/**/*.test.ts', 'tests/unit/**/*.test.ts'],
    globalSetup: ['tests/setup/global-setup.ts'],
    environment: 'node',
    maxWorkers: 4,
    sequence: { sequencer: SerialServerFilesFirst },
    // Each test file opens its PGlite databases (WebAssembly) in a process of its own. V8's
    // baseline compiler alone, as the server itself runs PGlite (src/server/db/client.ts), spares
    // each one the optimising recompile it would not live long enough to repay (docs/benchmarks.md,
    // 'CI time').
    execArgv: ['--liftoff-only'],
    // A worker runs its files one after another in one module graph: the app's modules are
    // imported once a worker rather than once a file (import was most of the run's time summed
    // over the files; docs/benchmarks.md, 'CI time'). Each file still makes its own app,
    // database and servers. The server's modules hold only caches of answers that never differ
    // (parsed user agents, statement names); what one app instance learns (a full disk) lives on
    // that instance.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
