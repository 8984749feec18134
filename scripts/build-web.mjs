// The web app's production build (`vite build` into dist/web), skipped when the build there was
// made from exactly the sources there are now (scripts/build-stamp.mjs). CI runs the browser tests
// once per database engine on the same checkout; they share one build (decision 031).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildUnlessCurrent } from './build-stamp.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Everything `vite build` reads besides node_modules, which package-lock.json stands for. */
export const WEB_SOURCES = [
  'src/web',
  'src/shared',
  'vite.config.ts',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
];

export const WEB_ENTRY = path.join(root, 'dist/web/index.html');

/** `vite build` into dist/web. Throws when vite fails (its own output says why). */
export function buildWeb() {
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error(`vite build failed (${result.status})`);
}

/** Throws when vite fails (its own output says why). */
export async function buildWebUnlessCurrent() {
  await buildUnlessCurrent({
    name: 'web',
    sources: WEB_SOURCES,
    output: WEB_ENTRY,
    build: buildWeb,
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildWebUnlessCurrent();
