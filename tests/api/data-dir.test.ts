import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServerProcess } from '../setup/server-process';

// DATA_DIR holds the database, the session secret, mail and videos; on a shared host no other local
// account may read or change any of it.

function openToOthers(root: string): string[] {
  const found: string[] = [];
  const walk = (target: string) => {
    const stats = statSync(target);
    if ((stats.mode & 0o077) !== 0) found.push(`${target} ${(stats.mode & 0o777).toString(8)}`);
    if (stats.isDirectory())
      for (const entry of readdirSync(target)) walk(path.join(target, entry));
  };
  walk(root);
  return found;
}

// Each first start here makes the database (a copy of the build's template):
// startServerProcess allows a start 50 s on a busy machine, more than the 30 s a test has by
// default (vitest.config.ts).
const START_BUDGET_MS = 60_000;

describe('DATA_DIR permissions', () => {
  it(
    'keeps every file and folder the embedded server writes for its own user only',
    async () => {
      const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'memento-perm-')), 'data');
      const server = await startServerProcess({ DATA_DIR: dataDir });
      await server.stop();

      const files = readdirSync(path.join(dataDir, 'pgdata'), { recursive: true });
      expect(files.length).toBeGreaterThan(100);
      expect(openToOthers(dataDir)).toEqual([]);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    },
    START_BUDGET_MS,
  );

  it(
    'closes what an operator loosened, and says so at start-up',
    async () => {
      const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'memento-perm-')), 'data');
      await (await startServerProcess({ DATA_DIR: dataDir, SESSION_SECRET: '' })).stop();
      chmodSync(dataDir, 0o755);
      chmodSync(path.join(dataDir, 'session-secret'), 0o644);
      const pgVersion = path.join(dataDir, 'pgdata', 'PG_VERSION');
      chmodSync(pgVersion, 0o666);

      const server = await startServerProcess({ DATA_DIR: dataDir, SESSION_SECRET: '' });
      await server.stop();
      expect(server.output()).toContain(
        'had files other accounts on this machine could read or change',
      );
      expect(openToOthers(dataDir)).toEqual([]);
      expect(statSync(pgVersion).mode & 0o777).toBe(0o600);
    },
    2 * START_BUDGET_MS,
  );
});

describe('a first start', () => {
  it(
    'makes a whole database from the build’s template, even after a first start cut short mid-copy, and keeps what it wrote through a kill',
    async () => {
      const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'memento-first-')), 'data');
      // What a power cut during the first start's copy leaves: a half-made copy beside, and the
      // folder itself with no cluster in it.
      mkdirSync(path.join(dataDir, 'pgdata.partial', 'base'), { recursive: true });
      writeFileSync(path.join(dataDir, 'pgdata.partial', 'PG_VERSION'), '18\n');
      mkdirSync(path.join(dataDir, 'pgdata'), { recursive: true });
      writeFileSync(path.join(dataDir, 'pgdata', 'left-over-from-a-cut-start'), 'junk');

      const server = await startServerProcess({ DATA_DIR: dataDir });
      const registered = await fetch(`${server.baseUrl}/api/device/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ fingerprint: 'first-start' }),
      });
      expect(registered.status).toBe(201);
      const { deviceId } = (await registered.json()) as { deviceId: string };
      // Killed, not stopped: the write is found again only through the write-ahead log, which
      // the copy left as a hole past its first page.
      server.child.kill('SIGKILL');
      await server.stop();

      const restarted = await startServerProcess({ DATA_DIR: dataDir });
      const status = await fetch(`${restarted.baseUrl}/api/device/status`, {
        headers: { 'x-device-id': deviceId },
      });
      await restarted.stop();

      expect(status.status).toBe(200);
      expect(await status.json()).toMatchObject({ deviceId });
      expect(existsSync(path.join(dataDir, 'pgdata.partial'))).toBe(false);
      expect(existsSync(path.join(dataDir, 'pgdata', 'left-over-from-a-cut-start'))).toBe(false);
      expect(readdirSync(path.join(dataDir, 'pgdata', 'base')).length).toBeGreaterThan(1);
      expect(openToOthers(dataDir)).toEqual([]);
    },
    2 * START_BUDGET_MS,
  );
});
