// `npm start`: builds the web app and the server when either is missing or older than its
// sources, then runs the built server (plain JavaScript, decision 026) serving the web app and
// the API from one port.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_ENTRY, SERVER_SOURCES, buildServer, isBuildStale } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webSources = ['src/web', 'src/shared', 'vite.config.ts', 'package-lock.json'];

if (isBuildStale(path.join(root, 'dist/web/index.html'), webSources)) {
  console.log('Building the web app…');
  const build = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build'],
    { cwd: root, stdio: 'inherit' },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}

if (isBuildStale(SERVER_ENTRY, SERVER_SOURCES)) {
  await buildServer();
}

await import(SERVER_ENTRY);
