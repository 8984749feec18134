import { chmodSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServerProcess } from '../setup/server-process';

// Issue 14 item 5: DATA_DIR holds the database, the session secret, mail and videos; on a shared
// host no other local account may read or change any of it.

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

// Each start here creates the database (initdb in a child process): startServerProcess allows it
// 50 s on a busy machine, more than the 30 s a test has by default (vitest.config.ts).
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
