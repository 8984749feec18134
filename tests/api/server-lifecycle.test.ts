import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerTestDatabase } from '../setup/database';
import { startServerProcess } from '../setup/server-process';

// The built server (plain JavaScript) starts and, given SIGTERM, exits by itself every time: no
// loader thread left to deadlock the shutdown.

const STARTS = 20;
const EXIT_WITHIN_MS = 10_000;

describe('the built server, started and stopped again and again', () => {
  let env: Record<string, string>;
  let closeDatabase = async () => {};

  beforeAll(async () => {
    env = { DATA_DIR: path.join(mkdtempSync(path.join(os.tmpdir(), 'memento-life-')), 'data') };
    if (process.env.TEST_DATABASE_URL) {
      const database = await createServerTestDatabase(process.env.TEST_DATABASE_URL);
      env.DATABASE_URL = database.url;
      closeDatabase = () => database.close();
    }
  });

  afterAll(() => closeDatabase());

  it(`answers, then exits cleanly within 10 s of SIGTERM, ${STARTS} times over`, async () => {
    const exits: number[] = [];
    for (let start = 0; start < STARTS; start += 1) {
      const server = await startServerProcess(env);
      const health = await fetch(`${server.baseUrl}/api/health`);
      expect(health.status, `${await health.text()}\n${server.output()}`).toBe(200);

      const stoppedAt = Date.now();
      const stopped = server.stop().then(() => Date.now() - stoppedAt);
      const waited = await Promise.race([
        stopped,
        new Promise<number>((resolve) => setTimeout(() => resolve(Infinity), EXIT_WITHIN_MS)),
      ]);
      if (waited === Infinity) server.child.kill('SIGKILL');
      exits.push(waited);
      expect(server.exitCode()).toBe(0);
    }
    expect(exits.filter((ms) => ms > EXIT_WITHIN_MS)).toEqual([]);
  }, 300_000);
});
