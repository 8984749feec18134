// The server, built ahead of time to plain JavaScript
// (docs/decisions/026-the-server-is-built-ahead-of-time.md): one ES module per entry under
// dist/server, with the packages it always loads bundled in (a start no longer resolves and reads
// some eight hundred files from node_modules) and the rest left there. `npm start` and the tests
// that start a whole server run this build; `npm run dev` keeps compiling on the fly through tsx.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildUnlessCurrent } from './build-stamp.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_ENTRY = path.join(root, 'dist/server/main.js');
const DATABASE_TEMPLATE = path.join(root, 'dist/pgdata-template');
/** What the server build is made from (paths from the root); `npm start` rebuilds when one is newer. */
export const SERVER_SOURCES = ['src/server', 'src/shared', 'drizzle', 'package-lock.json'];
const entryPoints = {
  main: 'src/server/main.ts',
  'reset-admin-second-factor': 'src/server/cli/reset-admin-second-factor.ts',
  'make-database-template': 'src/server/cli/make-database-template.ts',
};

function newestModification(target) {
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(target))
    newest = Math.max(newest, newestModification(path.join(target, entry)));
  return newest;
}

/** True when `output` is missing or older than any file under `sources` (paths from the root). */
export function isBuildStale(output, sources) {
  if (!existsSync(output)) return true;
  const builtAt = statSync(output).mtimeMs;
  return sources.some((source) => {
    const full = path.join(root, source);
    return existsSync(full) && newestModification(full) > builtAt;
  });
}

/**
 * Packages the build leaves to node_modules: PGlite reads its WebAssembly and data files from
 * beside its own modules, Argon2 is a native addon, pg-native is an optional one pg never needs
 * here, pino starts its transports' workers from its own files, and the S3 client, Redis,
 * nodemailer and Stripe are loaded only where an installation uses them.
 */
const LEFT_IN_NODE_MODULES = [
  '@electric-sql/pglite',
  '@electric-sql/pglite/*',
  '@node-rs/argon2',
  'pg-native',
  'pino',
  'thread-stream',
  '@aws-sdk/*',
  'ioredis',
  'nodemailer',
  'stripe',
  'esbuild',
];

/**
 * A new PGlite cluster with every migration applied, for a first start to copy: made by the built
 * server's own code in a process of its own, beside its final place, and moved there only when
 * whole.
 */
function makeDatabaseTemplate() {
  const partial = `${DATABASE_TEMPLATE}.partial`;
  const made = spawnSync(
    process.execPath,
    [path.join(root, 'dist/server/make-database-template.js'), partial],
    { cwd: root, stdio: 'inherit' },
  );
  if (made.status !== 0)
    throw new Error('Could not make the database template (dist/pgdata-template)');
  renameSync(partial, DATABASE_TEMPLATE);
}

/** How the server is bundled: what stays in node_modules, for which Node, as which modules. */
const BUNDLE_OPTIONS = {
  absWorkingDir: root,
  bundle: true,
  external: LEFT_IN_NODE_MODULES,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  // Bundled CommonJS packages require Node's own modules; an ES module has no `require`.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
};

export async function buildServer() {
  rmSync(path.join(root, 'dist/server'), { recursive: true, force: true });
  rmSync(DATABASE_TEMPLATE, { recursive: true, force: true });
  await build({
    ...BUNDLE_OPTIONS,
    entryPoints,
    outdir: 'dist/server',
    // Separate chunks for what is loaded only when configured (the S3 client, Redis, SMTP).
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: true,
  });
  makeDatabaseTemplate();
}

/**
 * One more program bundled as the server is (for a benchmark's bare baseline to start as the
 * server starts): `entry` into the single file `outfile`, which must lie inside the project so
 * that what stays in node_modules is found.
 */
export async function bundleLikeServer(entry, outfile) {
  await build({ ...BUNDLE_OPTIONS, entryPoints: [entry], outfile });
}

/**
 * The build unless dist/server was built from exactly these sources (scripts/build-stamp.mjs): the
 * tests' global setup calls it, so CI's two runs (one per database engine) share one build and
 * neither deletes it under the other's running server.
 */
export async function buildServerUnlessCurrent() {
  await buildUnlessCurrent({
    name: 'server',
    sources: [...SERVER_SOURCES, 'scripts/build-server.mjs'],
    output: SERVER_ENTRY,
    build: buildServer,
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildServer();
