// `npm run test:e2e`: the browser tests against a production build of the current sources.
// Extra arguments go to `playwright test` (e.g. `npm run test:e2e -- tests/e2e/auth.spec.ts`).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HOW_TO_GET_CHROMIUM, findChromium } from '../tests/e2e/support/browser.mjs';
import { buildWebUnlessCurrent } from './build-web.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const isCi = process.env.CI === 'true';

function run(args, env = process.env) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env });
  return result.status ?? 1;
}

const browser = findChromium();
if (!browser) {
  const banner = '!'.repeat(78);
  console.error(`\n${banner}\n${HOW_TO_GET_CHROMIUM}\n${banner}\n`);
  if (isCi) {
    console.error('CI=true: the browser tests are required, so this run fails.');
    process.exit(1);
  }
  console.error('The browser tests were NOT run.\n');
  process.exit(0);
}
console.log(`Browser tests use Chromium from ${browser.source}: ${browser.path}`);
if (process.env.ENGINE_TESTS_ONLY === '1') {
  console.log('ENGINE_TESTS_ONLY=1: only the browser tests tagged @engine.');
}

// Built unless dist/web was built from exactly these sources, so the tests never exercise a
// stale bundle and CI's second run (the other database engine) does not build it again.
try {
  await buildWebUnlessCurrent();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

const playwrightCli = path.join(root, 'node_modules/@playwright/test/cli.js');
process.exit(
  run([playwrightCli, 'test', ...process.argv.slice(2)], {
    ...process.env,
    CHROMIUM_PATH: browser.path,
  }),
);
