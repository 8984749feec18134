// `npm run bench:cloud`: the cloud library's speed goals, each against a bare baseline measured in
// the same run on the same machine (absolute numbers drift on a shared machine):
//   1. upload of a 100 MB file through the client protocol (create, which signs the first parts,
//      PUT parts, complete with SHA-256 check; the video was indexed when it was saved, before)
//      vs one raw PUT of the same file to a bare Node HTTP sink;
//   2. Range playback from file mode vs a bare Node server piping the same byte ranges;
//   3. the server killed (SIGKILL) mid-upload and restarted: how many parts are sent again;
//   4. enhanced encryption's cost: the same video sent and played sealed against plain, in the
//      browser (scripts/bench/sealed-cloud.ts);
//   5. a new tablet filling itself from the cloud vs plain fetch of the same objects
//      (scripts/bench/cloud-fill.ts).
// It starts the real server (the build `npm start` runs, PGlite, file mode) on a fresh DATA_DIR.
// BENCH_CLOUD_ONLY=protocol runs only the first three parts, =sealed the fourth, =fill the fifth.
import { spawn } from 'node:child_process';
import { buildServer } from './build-server.mjs';
import { type Client, median, signUpOwner, startServer, waitForHealth } from './bench-support';
import { runCloudFill } from './bench/cloud-fill';
import { runSealedCloud } from './bench/sealed-cloud';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const FILE_BYTES = Number(process.env.BENCH_FILE_MB ?? 100) * 1024 * 1024;
/** A player's requests: small ones while seeking, larger ones while playing on. */
const RANGE_SIZES = [1024 * 1024, 8 * 1024 * 1024];
const RANGE_SECONDS = 4;
const RANGE_ROUNDS = 3;
const RANGE_CONCURRENCY = 8;
const work = mkdtempSync(path.join(os.tmpdir(), 'memento-bench-cloud-'));
const port = 5700 + (process.pid % 200);
const base = `http://127.0.0.1:${port}`;

const startServerOn = (dataDir: string) => startServer({ port, dataDir });

interface TUploadState {
  uploadId: string;
  partSize: number;
  partCount: number;
  /** Parts the upload's start already signed. */
  parts: Array<{ partNumber: number; url: string }>;
  etags: Map<number, string>;
}

/** Saving a recording indexes it (the app does this before any upload starts). */
async function indexVideo(client: Client, recipientId: number, file: Buffer): Promise<string> {
  const videoId = randomUUID();
  const indexed = await client.call('POST', '/api/videos', {
    id: videoId,
    recipientId,
    metadata: { byteSize: file.length, durationMs: 60_000, mimeType: 'video/webm' },
  });
  if (!indexed.ok) throw new Error(`index: ${await indexed.text()}`);
  return videoId;
}

async function beginUpload(client: Client, recipientId: number, file: Buffer, sha: string) {
  const videoId = await indexVideo(client, recipientId, file);
  return { videoId, state: await createUpload(client, videoId, file, sha) };
}

async function createUpload(
  client: Client,
  videoId: string,
  file: Buffer,
  sha: string,
): Promise<TUploadState> {
  const created = await client.call('POST', '/api/uploads', {
    videoId,
    title: 'Bench',
    promptId: null,
    byteSize: file.length,
    sha256: sha,
  });
  const body = (await created.json()) as Omit<TUploadState, 'etags'>;
  return { ...body, etags: new Map() };
}

/** The client's loop: sign the parts not yet sent, PUT them one after another, keep each ETag. */
async function sendParts(
  client: Client,
  state: TUploadState,
  file: Buffer,
  onPartSent: (partNumber: number) => void = () => undefined,
): Promise<void> {
  const missing = Array.from({ length: state.partCount }, (_, index) => index + 1).filter(
    (number) => !state.etags.has(number),
  );
  const signedAtStart = new Map(state.parts.map((part) => [part.partNumber, part]));
  for (let offset = 0; offset < missing.length; offset += 100) {
    const batch = missing.slice(offset, offset + 100);
    let parts = batch.map((number) => signedAtStart.get(number)!);
    if (parts.some((part) => part === undefined)) {
      const signed = await client.call('POST', `/api/uploads/${state.uploadId}/sign`, {
        partNumbers: batch,
      });
      ({ parts } = (await signed.json()) as { parts: typeof parts });
    }
    for (const part of parts) {
      const start = (part.partNumber - 1) * state.partSize;
      const res = await client.call('PUT', part.url, file.subarray(start, start + state.partSize), {
        'content-type': 'application/octet-stream',
      });
      if (!res.ok) throw new Error(`part ${part.partNumber}: ${res.status}`);
      await res.arrayBuffer(); // read to the end, so the connection is reused
      state.etags.set(part.partNumber, res.headers.get('etag')!);
      onPartSent(part.partNumber);
    }
  }
}

async function complete(client: Client, state: TUploadState) {
  const res = await client.call('POST', `/api/uploads/${state.uploadId}/complete`, {
    parts: [...state.etags].map(([partNumber, etag]) => ({ partNumber, etag })),
  });
  if (!res.ok) throw new Error(`complete: ${await res.text()}`);
}

/** The baseline sink: one raw PUT written straight to disk. */
async function rawPutBaseline(file: Buffer): Promise<number> {
  const server = http.createServer((req, res) => {
    req.pipe(createWriteStream(path.join(work, 'sink.bin'))).on('finish', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: sinkPort } = server.address() as AddressInfo;
  const started = performance.now();
  await fetch(`http://127.0.0.1:${sinkPort}/`, {
    method: 'PUT',
    body: file as unknown as BodyInit,
  });
  const seconds = (performance.now() - started) / 1000;
  server.close();
  return file.length / seconds;
}

/**
 * Random byte ranges for `RANGE_SECONDS` from `RANGE_CONCURRENCY` clients over keep-alive
 * connections; the body is counted, not kept. Answers bytes per second.
 */
async function rangeThroughput(
  url: string,
  size: number,
  rangeBytes: number,
  headers: Record<string, string>,
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: RANGE_CONCURRENCY });
  let bytes = 0;
  const deadline = performance.now() + RANGE_SECONDS * 1000;
  const fetchRange = (start: number) =>
    new Promise<void>((resolve, reject) => {
      const request = http.get(
        url,
        { agent, headers: { ...headers, range: `bytes=${start}-${start + rangeBytes - 1}` } },
        (res) => {
          if (res.statusCode !== 206) reject(new Error(`range answered ${res.statusCode}`));
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
          });
          res.on('end', resolve);
          res.on('error', reject);
        },
      );
      request.on('error', reject);
    });
  const worker = async () => {
    while (performance.now() < deadline) {
      await fetchRange(Math.floor(Math.random() * (size - rangeBytes)));
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: RANGE_CONCURRENCY }, worker));
  agent.destroy();
  return bytes / ((performance.now() - started) / 1000);
}

/** The baseline: a bare Node server in a process of its own, piping the asked-for byte range. */
async function startBareRangeServer(file: string): Promise<{ url: string; close(): void }> {
  const source = `
    const http = require('node:http');
    const fs = require('node:fs');
    const server = http.createServer((req, res) => {
      const [, from, to] = /bytes=(\\d+)-(\\d+)/.exec(req.headers.range || '') || [];
      const start = Number(from), end = Number(to);
      res.writeHead(206, { 'content-length': end - start + 1, 'content-type': 'video/webm' });
      fs.createReadStream(process.argv[1], { start, end }).pipe(res);
    });
    server.listen(0, '127.0.0.1', () => process.send(server.address().port));`;
  const child = spawn(process.execPath, ['-e', source, file], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const bareServerPort = await new Promise<number>((resolve) =>
    child.once('message', (value) => resolve(Number(value))),
  );
  return { url: `http://127.0.0.1:${bareServerPort}/`, close: () => child.kill() };
}

const sha256Of = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const mb = (bytesPerSecond: number) => `${(bytesPerSecond / 1024 / 1024).toFixed(0)} MB/s`;

async function main() {
  await buildServer();
  const file = randomBytes(FILE_BYTES);
  const sha = createHash('sha256').update(file).digest('hex');
  const dataDir = path.join(work, 'data');
  let server = startServerOn(dataDir);
  try {
    await waitForHealth(base);
    const { client, recipientId } = await signUpOwner(base);

    // 1. Upload throughput: the median of three of each, after one small upload and one raw PUT
    // have warmed both paths (a server that has just started compiles as it goes; the first
    // upload into a fresh process was markedly slower than every later one).
    const warmFile = file.subarray(0, 16 * 1024 * 1024);
    const warm = await beginUpload(client, recipientId, warmFile, sha256Of(warmFile));
    await sendParts(client, warm.state, warmFile);
    await complete(client, warm.state);
    await rawPutBaseline(warmFile);
    const raws: number[] = [];
    const apps: number[] = [];
    let videoId = '';
    for (let round = 0; round < 3; round += 1) {
      raws.push(await rawPutBaseline(file));
      videoId = await indexVideo(client, recipientId, file);
      // The client's upload path: start (with the first parts signed), parts, completion.
      const started = performance.now();
      const state = await createUpload(client, videoId, file, sha);
      await sendParts(client, state, file);
      await complete(client, state);
      apps.push(file.length / ((performance.now() - started) / 1000));
    }
    const raw = median(raws);
    const app = median(apps);
    console.log(
      `upload ${FILE_BYTES / 1024 / 1024} MB (median of 3): app ${mb(app)} vs raw PUT ${mb(raw)} = ${(app / raw).toFixed(2)}x (goal >= 0.8x)`,
    );

    // 2. Range playback.
    const playback = await client.call('GET', `/api/videos/${videoId}/playback`);
    const { url } = (await playback.json()) as { url: string };
    const bareFile = path.join(work, 'bare.bin');
    writeFileSync(bareFile, file);
    const bare = await startBareRangeServer(bareFile);
    for (const rangeBytes of RANGE_SIZES) {
      // Baseline and app take turns, three rounds each, so a busy moment on the machine falls on
      // both; the medians are compared.
      const bareRates: number[] = [];
      const appRates: number[] = [];
      for (let round = 0; round < RANGE_ROUNDS; round += 1) {
        bareRates.push(await rangeThroughput(bare.url, file.length, rangeBytes, {}));
        appRates.push(
          await rangeThroughput(`${base}${url}`, file.length, rangeBytes, {
            cookie: client.cookie,
          }),
        );
      }
      const bareRate = median(bareRates);
      const appRate = median(appRates);
      console.log(
        `range playback (${rangeBytes / 1024 / 1024} MiB ranges, ${RANGE_CONCURRENCY} clients, median of ${RANGE_ROUNDS}): app ${mb(appRate)} vs bare pipe ${mb(bareRate)} = ${(appRate / bareRate).toFixed(2)}x (goal >= 0.8x)`,
      );
    }
    bare.close();

    // 3. Kill the server mid-upload, restart it, resume.
    const second = randomBytes(FILE_BYTES);
    const secondSha = createHash('sha256').update(second).digest('hex');
    const resumed = await beginUpload(client, recipientId, second, secondSha);
    const sentBefore = new Set<number>();
    const killAfter = Math.floor(resumed.state.partCount / 2);
    let killed = false;
    let inFlight: number | undefined;
    await sendParts(client, resumed.state, second, (partNumber) => {
      sentBefore.add(partNumber);
      if (sentBefore.size === killAfter && !killed) {
        killed = true;
        inFlight = partNumber + 1;
        server.kill('SIGKILL');
      }
    }).catch(() => undefined);
    server = startServerOn(dataDir);
    await waitForHealth(base);
    const again = await createUpload(client, resumed.videoId, second, secondSha);
    const sameUpload = again.uploadId === resumed.state.uploadId;
    const sentAfter: number[] = [];
    await sendParts(client, resumed.state, second, (partNumber) => sentAfter.push(partNumber));
    await complete(client, resumed.state);
    const resent = sentAfter.filter(
      (partNumber) => sentBefore.has(partNumber) || partNumber === inFlight,
    ).length;
    console.log(
      `kill -9 mid-upload after ${sentBefore.size} of ${resumed.state.partCount} parts: restart resumed the same upload: ${sameUpload}; parts sent again: ${resent} (goal <= 1); checksum verified on completion`,
    );
  } finally {
    server.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  }
}

const only = process.env.BENCH_CLOUD_ONLY;
if (!only || only === 'protocol') await main();
if (!only || only === 'sealed') await runSealedCloud();
if (!only || only === 'fill') await runCloudFill();
