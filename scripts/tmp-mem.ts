import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServer } from './build-server.mjs';
import { signUpOwner, startServer, stopServer, waitForHealth } from './bench-support';
await buildServer();
const port = 5960; const base = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mem-'));
for (const round of ['first start', 'restart']) {
  const app = startServer({ port, dataDir });
  await waitForHealth(base);
  if (round === 'first start') await signUpOwner(base);
  await new Promise((r) => setTimeout(r, 3000));
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${app.pid}/status`, 'utf8'))?.[1]) / 1024;
  console.log(round, process.env.NODE_OPTIONS ?? '', Math.round(rss), 'MB');
  await stopServer(app);
}
