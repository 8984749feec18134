// The web app's production build (`vite build` into dist/web), skipped when the build already
// there was made from exactly the sources there are now. CI runs the browser tests once per
// database engine on the same checkout; the second run then reuses the first run's build
// (decision 029). Contents are compared, not modification times, so a checkout, an edit undone
// or a build made by hand in between never passes for current.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Everything `vite build` reads besides node_modules, which package-lock.json stands for. */
const WEB_SOURCES = [
  'src/web',
  'src/shared',
  'vite.config.ts',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
];
const INDEX_HTML = path.join(root, 'dist/web/index.html');
/** Beside dist/web rather than in it, so the server never serves it. */
const STAMP = path.join(root, 'dist/web-build.json');

function listFiles(target) {
  if (!existsSync(target)) return [];
  if (!statSync(target).isDirectory()) return [target];
  return readdirSync(target)
    .sort()
    .flatMap((entry) => listFiles(path.join(target, entry)));
}

function hashSources() {
  const hash = createHash('sha256');
  for (const file of WEB_SOURCES.flatMap((source) => listFiles(path.join(root, source)))) {
    hash.update(`${path.relative(root, file)}\0`);
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  for (const [name, value] of Object.entries(process.env).sort()) {
    if (name.startsWith('VITE_')) hash.update(`${name}=${value}\0`);
  }
  return hash.digest('hex');
}

const hashFile = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

function readStamp() {
  try {
    return JSON.parse(readFileSync(STAMP, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Builds dist/web unless the stamp says it was built from these very sources and its index.html
 * (which names every hashed chunk) is the one that build wrote. Returns vite's exit status.
 */
export function buildWebIfStale() {
  const sources = hashSources();
  const stamp = readStamp();
  if (
    stamp?.sources === sources &&
    existsSync(INDEX_HTML) &&
    stamp.index === hashFile(INDEX_HTML)
  ) {
    console.log('The web build in dist/web is current; not building it again.');
    return 0;
  }
  rmSync(STAMP, { force: true });
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit' },
  );
  const status = result.status ?? 1;
  if (status === 0) {
    writeFileSync(STAMP, `${JSON.stringify({ sources, index: hashFile(INDEX_HTML) })}\n`);
  }
  return status;
}
