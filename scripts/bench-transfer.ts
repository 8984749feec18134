// `npm run bench:transfer`: messages moving tablet to tablet over WebRTC on loopback, against a
// bare data channel between the same two pages in the same run (goal: at least 0.5x), with the
// memory of both browsers while a large library moves (goal: bounded by a few chunks, the same
// for a small library as for a large one).
//
// Each library size gets a fresh owner and two fresh Chromiums (the old tablet, the new one), each
// on a profile on disk. The old tablet's library is written into its IndexedDB a chunk at a time;
// the owner shows the code on the old tablet, moves the account to the new one with the emailed
// code and types the code there, as a person does; the time runs from 'Receive my messages' to
// 'All N messages are now on this device.' The bare channel sends the same number of bytes in the
// app's chunk size and with its buffering, before and after the move; the faster of the two is
// the baseline.
//
// BENCH_TRANSFER_MB="256,1024" sets the library sizes; BENCH_MESSAGE_MB (default 64) each message's.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SEND_HIGH_WATER_BYTES, SEND_LOW_WATER_BYTES } from '../src/web/features/transfer/peer';
import { TRANSFER_CHUNK_BYTES } from '../src/web/features/transfer/transfer-frames';
import { buildServerUnlessCurrent } from './build-server.mjs';
import { buildWebUnlessCurrent } from './build-web.mjs';
import { startServer, stopServer, waitForHealth } from './bench-support';
import { type TMemoryPeaks, withMemoryPeaks } from './bench/browser-memory';
import { signUpInPage } from './bench/sealed-owners';
import {
  launchDevice,
  libraryBytes,
  moveAccountHere,
  rawChannelThroughput,
  writeLibrary,
  type TDevice,
} from './bench/transfer-devices';

const MB = 1024 * 1024;
const SIZES_MB = (process.env.BENCH_TRANSFER_MB ?? '256,1024').split(',').map(Number);
const MESSAGE_MB = Number(process.env.BENCH_MESSAGE_MB ?? 64);
const port = Number(process.env.BENCH_PORT ?? 5173);
const base = `http://127.0.0.1:${port}`;
const PACING = {
  chunkBytes: TRANSFER_CHUNK_BYTES,
  highWaterBytes: SEND_HIGH_WATER_BYTES,
  lowWaterBytes: SEND_LOW_WATER_BYTES,
};

const rate = (bytesPerSecond: number) => `${(bytesPerSecond / MB).toFixed(1)} MB/s`;
const mb = (bytes: number) => `${Math.round(bytes / MB)} MB`;
const describe = (peaks: TMemoryPeaks) =>
  `JS heap ${mb(peaks.heap)}, ArrayBuffers ${mb(peaks.buffers)}, renderers ${mb(peaks.renderers)}, ` +
  `browser process ${mb(peaks.browser)}, all processes ${mb(peaks.resident)}`;

interface TResult {
  libraryMb: number;
  messages: number;
  prepareSeconds: number;
  moveSeconds: number;
  /** From 'Receive my messages' to the first message under way: finding the other tablet. */
  connectSeconds: number;
  app: number;
  raw: number;
  /** The bare channel before and after the move: the faster is the baseline. */
  rawRuns: number[];
  oldPeaks: TMemoryPeaks;
  newPeaks: TMemoryPeaks;
}

async function moveOnce(libraryMb: number, dataDir: string, round: number): Promise<TResult> {
  const count = Math.max(1, Math.round(libraryMb / MESSAGE_MB));
  const bytes = Math.round((libraryMb * MB) / count);
  const devices: TDevice[] = [];
  try {
    const oldTablet = await launchDevice('old');
    devices.push(oldTablet);
    const newTablet = await launchDevice('new');
    devices.push(newTablet);
    const owner = await signUpInPage(
      oldTablet.page,
      base,
      `benchmove${libraryMb}x${process.pid}r${round}`,
    );
    const writing = performance.now();
    await writeLibrary(oldTablet.page, owner, { count, bytes });
    console.log(
      `  ${libraryMb} MB: ${count} messages of ${mb(bytes)} written in ${((performance.now() - writing) / 1000).toFixed(0)} s`,
    );
    const total = count * bytes;
    await oldTablet.page.goto(`${base}/`);
    await newTablet.page.goto(`${base}/auth`);
    const rawBefore = await rawChannelThroughput(oldTablet.page, newTablet.page, total, PACING);

    const measured = await withMemoryPeaks(oldTablet, oldTablet.profileDir, async () => {
      await oldTablet.page.goto(`${base}/move-messages`);
      const preparing = performance.now();
      await oldTablet.page.getByRole('button', { name: 'Show the code' }).click();
      const shown = oldTablet.page.getByTestId('transfer-code');
      await shown.waitFor({ timeout: 30 * 60_000 });
      const prepareSeconds = (performance.now() - preparing) / 1000;
      const code = (await shown.textContent()) ?? '';
      await moveAccountHere(newTablet.page, base, owner, dataDir);
      await newTablet.page.goto(`${base}/receive-messages`);
      return withMemoryPeaks(newTablet, newTablet.profileDir, async () => {
        await newTablet.page.getByLabel('Code from your old device').fill(code);
        const started = performance.now();
        await newTablet.page.getByRole('button', { name: 'Receive my messages' }).click();
        await newTablet.page.getByText(/^Receiving message 1 of/).waitFor({ timeout: 5 * 60_000 });
        const connectSeconds = (performance.now() - started) / 1000;
        await newTablet.page
          .getByText(`All ${count} messages are now on this device.`)
          .waitFor({ timeout: 60 * 60_000 });
        return {
          prepareSeconds,
          connectSeconds,
          moveSeconds: (performance.now() - started) / 1000,
        };
      });
    });
    const arrived = await libraryBytes(newTablet.page);
    if (arrived.count !== count || arrived.bytes !== total) {
      throw new Error(`the new tablet holds ${arrived.count} messages, ${arrived.bytes} bytes`);
    }
    const rawAfter = await rawChannelThroughput(oldTablet.page, newTablet.page, total, PACING);
    const { prepareSeconds, connectSeconds, moveSeconds } = measured.value.value;
    return {
      libraryMb,
      messages: count,
      prepareSeconds,
      connectSeconds,
      moveSeconds,
      app: total / moveSeconds,
      raw: Math.max(rawBefore, rawAfter),
      rawRuns: [rawBefore, rawAfter],
      oldPeaks: measured.peaks,
      newPeaks: measured.value.peaks,
    };
  } finally {
    for (const device of devices) {
      await device.context.close().catch(() => undefined);
      rmSync(device.profileDir, { recursive: true, force: true });
    }
  }
}

async function main() {
  // BENCH_SERVER_ENTRY names a build made beforehand (see bench-support.ts).
  if (!process.env.BENCH_SERVER_ENTRY) {
    await buildServerUnlessCurrent();
    await buildWebUnlessCurrent();
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-transfer-'));
  // An address nobody registers with is the admin's: the owners are ordinary owners.
  const server: ChildProcess = startServer({
    port,
    dataDir,
    env: { ADMIN_EMAIL: 'admin@bench.invalid' },
  });
  try {
    await waitForHealth(base);
    console.log(
      `tablet to tablet on loopback, chunks of ${TRANSFER_CHUNK_BYTES / 1024} KiB, sending while at most ${mb(SEND_HIGH_WATER_BYTES)} is queued (then waiting for ${SEND_LOW_WATER_BYTES / 1024} KiB)`,
    );
    for (const [round, libraryMb] of SIZES_MB.entries()) {
      const result = await moveOnce(libraryMb, dataDir, round);
      console.log(
        `  ${result.libraryMb} MB library (${result.messages} messages): app ${rate(result.app)} ` +
          `(${result.moveSeconds.toFixed(1)} s, ${result.connectSeconds.toFixed(1)} s of it connecting; the code took ${result.prepareSeconds.toFixed(1)} s to show) ` +
          `vs bare data channel ${rate(result.raw)} (faster of ${result.rawRuns.map(rate).join(' and ')}) = ${(result.app / result.raw).toFixed(2)}x (goal >= 0.5x)`,
      );
      console.log(`    old tablet, peak above idle: ${describe(result.oldPeaks)}`);
      console.log(`    new tablet, peak above idle: ${describe(result.newPeaks)}`);
    }
  } finally {
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
