// The web app's production build (`vite build` into dist/web), skipped when the build there was
// made from exactly the sources there are now (scripts/build-stamp.mjs). CI runs the browser tests
// once per database engine on the same checkout; they share one build.
//
// Vite writes beside dist/web and the finished build then takes its place: a server that is running
// meanwhile keeps serving the build it has, never an emptied folder.
import { spawnSync } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildUnlessCurrent } from './build-stamp.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Everything `vite build` reads besides node_modules, which package-lock.json stands for. */
export const WEB_SOURCES = [
  'src/web',
  'src/shared',
  'vite.config.ts',
  'scripts/vite',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
];

const WEB_DIR = path.join(root, 'dist/web');
export const WEB_ENTRY = path.join(WEB_DIR, 'index.html');
const NEXT_WEB_DIR = path.join(root, 'dist/.web-next');

/**
 * Puts the folder `next` where `live` is, in two renames: the old build moves aside whole and the
 * new one moves in whole, so a reader of `live` finds one complete build or the other. The old
 * one is removed after; a file being sent from it is sent to the end (the inode lives on).
 */
export function replaceDirectory(next, live) {
  const old = `${live}.old`;
  rmSync(old, { recursive: true, force: true });
  if (existsSync(live)) renameSync(live, old);
  renameSync(next, live);
  rmSync(old, { recursive: true, force: true });
}

/** `vite build` into dist/web. Throws when vite fails (its own output says why). */
export function buildWeb() {
  const result = spawnSync(
    process.execPath,
    [
      path.join(root, 'node_modules/vite/bin/vite.js'),
      'build',
      '--logLevel',
      'warn',
      '--outDir',
      NEXT_WEB_DIR,
    ],
    // Vite bundles the TypeScript config and its plugins (scripts/vite), as Node 20 cannot load
    // them as they are: its note that a native loader would want file extensions does not apply.
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
    },
  );
  if (result.status !== 0) {
    rmSync(NEXT_WEB_DIR, { recursive: true, force: true });
    throw new Error(`vite build failed (${result.status})`);
  }
  replaceDirectory(NEXT_WEB_DIR, WEB_DIR);
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
