// Whether a build output was made from exactly the sources there are now. A build writes a stamp
// beside its output (dist/<name>-build.json): a hash of every source file's path and contents, and
// a hash of one output file that changes with every build (the web app's index.html names each
// hashed chunk; the server's main.js is the bundle). Contents are compared, not modification times,
// so a checkout, an edit undone or a build made by hand in between never passes for current.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stampPath = (name) => path.join(root, 'dist', `${name}-build.json`);

function listFiles(target) {
  if (!existsSync(target)) return [];
  if (!statSync(target).isDirectory()) return [target];
  return readdirSync(target)
    .sort()
    .flatMap((entry) => listFiles(path.join(target, entry)));
}

/** `sources` are paths from the repository root, files or folders. */
function hashSources(sources) {
  const hash = createHash('sha256');
  for (const file of sources.flatMap((source) => listFiles(path.join(root, source)))) {
    hash.update(`${path.relative(root, file)}\0`);
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const hashFile = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

/**
 * Runs `build` unless the stamp says `output` was built from these very sources; `build` may be
 * async. The stamp is removed first and written only after a build that succeeded.
 */
export async function buildUnlessCurrent({ name, sources, output, build }) {
  const stamp = stampPath(name);
  const sourcesHash = hashSources(sources);
  let recorded = null;
  try {
    recorded = JSON.parse(readFileSync(stamp, 'utf8'));
  } catch {
    // No stamp (never built here, or the last build failed): build.
  }
  if (
    recorded?.sources === sourcesHash &&
    existsSync(output) &&
    recorded.output === hashFile(output)
  ) {
    console.log(`The ${name} build in ${path.relative(root, path.dirname(output))} is current.`);
    return;
  }
  rmSync(stamp, { force: true });
  await build();
  writeFileSync(stamp, `${JSON.stringify({ sources: sourcesHash, output: hashFile(output) })}\n`);
}
