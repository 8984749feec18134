import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { statfsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRegistration, NEXT_OF_KIN } from '../setup/app';
import { HttpDevice } from '../setup/http-client';
import { startServerProcess, type ServerProcess } from '../setup/server-process';

// The embedded database on a volume that fills up. Writes answer 507 with a plain message and save
// nothing, /api/health says so, reads keep working, and writes resume by themselves once there is
// room. The volume is a real small file system (tmpfs) of the test's own.

const DISK_FULL = {
  code: 'DISK_FULL',
  message:
    'The server’s disk is full, so nothing was saved. Please tell the person who looks after Memento. Anything recorded is still safe on this device.',
};

let volume: string;
let server: ServerProcess;
let filler: string;

function freeBytes() {
  const stats = statfsSync(volume);
  return stats.bavail * stats.bsize;
}

/** Fills the volume to the last few kilobytes. */
function fillVolume() {
  let index = 0;
  for (const size of [16 * 1024 * 1024, 1024 * 1024, 64 * 1024, 4096]) {
    for (;;) {
      if (freeBytes() < size) break;
      try {
        writeFileSync(path.join(filler, `block-${(index += 1)}`), Buffer.alloc(size));
      } catch {
        break;
      }
    }
  }
}

beforeAll(async () => {
  volume = mkdtempSync(path.join(os.tmpdir(), 'memento-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=160m', 'tmpfs', volume]);
  filler = path.join(volume, 'filler');
  mkdirSync(filler);
  server = await startServerProcess({ DATA_DIR: path.join(volume, 'data') });
});
afterAll(async () => {
  await server?.stop();
  execFileSync('umount', [volume]);
  rmSync(volume, { recursive: true, force: true });
});

describe('a full disk under the embedded database', () => {
  it('answers writes with 507, keeps reads working, reports it, and recovers by itself', async () => {
    const owner = await HttpDevice.register(server.baseUrl);
    const registered = await owner.post(
      '/api/register',
      buildRegistration(owner, { email: 'margaret@example.test', username: 'margaret' }),
    );
    expect(registered.status).toBe(201);

    fillVolume();
    const recipient = { ...NEXT_OF_KIN, email: 'susan@example.test' };
    // Enough writes to need new pages.
    let write = await owner.post('/api/recipients', recipient);
    for (let i = 0; i < 20 && write.status !== 507; i += 1) {
      write = await owner.post('/api/recipients', { ...recipient, email: `s${i}@example.test` });
    }
    expect(write.status).toBe(507);
    expect(write.body).toEqual(DISK_FULL);

    const health = await fetch(`${server.baseUrl}/api/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'error', disk: 'full' });
    const read = await owner.request('GET', '/api/user');
    expect(read.status).toBe(200);
    expect(server.exitCode()).toBeUndefined();

    rmSync(filler, { recursive: true, force: true });
    const deadline = Date.now() + 20_000;
    let again = await owner.post('/api/recipients', { ...recipient, email: 'again@example.test' });
    while (again.status !== 201 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      again = await owner.post('/api/recipients', { ...recipient, email: 'again@example.test' });
    }
    expect(again.status).toBe(201);
    expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
  });
});
