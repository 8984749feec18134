// What the benchmark scripts share: the built server on a port of its own, a browser as the
// server sees it (a device id and a cookie), and an onboarded owner to act as.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

/** The middle value (the upper of the two middle ones for an even count). */
export const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export const root = path.resolve(import.meta.dirname, '..');

/**
 * BENCH_PROFILE_DIR=<dir>: the server (and bench:api's baseline) writes a CPU profile there when
 * it stops (SIGTERM).
 * BENCH_NODE_FLAGS="…": extra Node or V8 flags for the server, to try a setting before adopting it.
 * BENCH_SERVER_ENTRY=<file>: another build of the server to start instead of dist/server/main.js
 * (say, one made with other esbuild settings), to compare two builds in the same minutes. The
 * server serves the web app, migrations and template of the nearest folder above it holding a
 * package.json: a copy of dist/ alone would serve this checkout's web app. Build in a clone or a
 * git worktree, or copy package.json, drizzle/ and dist/ into a folder of their own.
 */
export function profileFlags(): string[] {
  const directory = process.env.BENCH_PROFILE_DIR;
  const extra = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  return [...extra, ...(directory ? ['--cpu-prof', `--cpu-prof-dir=${directory}`] : [])];
}

/** Starts the built server (`npm start` builds it; the scripts call buildServer first). */
export function startServer(options: {
  port: number;
  dataDir: string;
  env?: Record<string, string>;
  /** Another program to start in the server's place, with the server's environment. */
  entry?: string;
}): ChildProcess {
  const base = `http://127.0.0.1:${options.port}`;
  return spawn(
    process.execPath,
    [
      ...profileFlags(),
      options.entry ?? (process.env.BENCH_SERVER_ENTRY || path.join(root, 'dist/server/main.js')),
    ],
    {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(options.port),
        HOST: '127.0.0.1',
        APP_URL: base,
        DATA_DIR: options.dataDir,
        LOG_LEVEL: 'warn',
        SESSION_SECRET: 'bench-session-secret-that-is-long-enough-0000',
        ...options.env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
}

/** A process's resident set size in MB, as the kernel counts it. */
export function residentMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

/** CPU time a process has used so far (user and system), in microseconds. */
export function cpuMicroseconds(pid: number): number {
  return statCpuMicroseconds(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/**
 * The CPU time in the text of a /proc/<pid>/stat, in microseconds; with `reapedChildren`, that of
 * its children that have ended and been waited for too.
 */
function statCpuMicroseconds(stat: string, options: { reapedChildren?: boolean } = {}): number {
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th,
  // cutime and cstime the 14th and 15th.
  const fields = stat.split(') ')[1]!.split(' ');
  let ticks = Number(fields[11]) + Number(fields[12]);
  if (options.reapedChildren) ticks += Number(fields[13]) + Number(fields[14]);
  return (ticks * 1_000_000) / 100; // USER_HZ is 100 on Linux
}

/** CPU time the whole machine spent busy (every process, the kernel included), in µs. */
export function machineBusyMicroseconds(): number {
  // The first line of /proc/stat: user nice system idle iowait irq softirq steal …, in ticks.
  const ticks = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1);
  const total = ticks.slice(0, 8).reduce((sum, tick) => sum + Number(tick), 0);
  const idle = Number(ticks[3]) + Number(ticks[4]);
  return ((total - idle) * 1_000_000) / 100;
}

/**
 * CPU time of every PostgreSQL server process on this machine (none for PGlite), in µs. A
 * backend that ends (a pool closing an idle connection) is waited for by the postmaster, whose
 * count of ended children then holds its time: the total never goes down.
 */
export function postgresMicroseconds(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.includes('(postgres)')) total += statCpuMicroseconds(stat, { reapedChildren: true });
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

export async function waitForHealth(base: string) {
  for (let i = 0; i < 2400; i += 1) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('server did not start');
}

export async function stopServer(server: ChildProcess) {
  if (server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

/** A browser as the server sees it: a device id and a cookie. */
export class Client {
  cookie = '';
  deviceId = '';
  constructor(readonly base: string) {}

  async call(method: string, url: string, body?: unknown, extra: Record<string, string> = {}) {
    const res = await fetch(`${this.base}${url}`, {
      method,
      headers: {
        ...(this.deviceId ? { 'x-device-id': this.deviceId } : {}),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(body !== undefined && !(body instanceof Uint8Array)
          ? { 'content-type': 'application/json' }
          : {}),
        ...extra,
      },
      body:
        body === undefined
          ? undefined
          : body instanceof Uint8Array
            ? (body as unknown as BodyInit)
            : JSON.stringify(body),
    });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0]!;
    return res;
  }
}

/**
 * Registers a primary user on a new device and finishes onboarding with a next of kin. The
 * installation's first account is its admin; `name` tells accounts apart.
 */
export async function signUpOwner(
  base: string,
  name = 'bench',
): Promise<{ client: Client; recipientId: number }> {
  const client = new Client(base);
  const device = await client.call('POST', '/api/device/register', { fingerprint: name });
  client.deviceId = ((await device.json()) as { deviceId: string }).deviceId;
  const registered = await client.call('POST', '/api/register', {
    firstName: 'Bench',
    lastName: 'Owner',
    email: `${name}@example.test`,
    username: `${name}owner`,
    password: 'Tulips&Tea-2026',
    tosAccepted: true,
    tosAcceptedAt: new Date().toISOString(),
    deviceId: client.deviceId,
    fingerprint: name,
  });
  if (!registered.ok) throw new Error(`register: ${await registered.text()}`);
  const kin = await client.call('POST', '/api/recipients', {
    firstName: 'Susan',
    lastName: 'Hill',
    email: 'susan@example.test',
    phoneNumber: '+44 7700 900123',
    relationship: 'Daughter',
    category: 'next_of_kin',
  });
  const recipientId = ((await kin.json()) as { id: number }).id;
  await client.call('POST', '/api/user/complete-onboarding', {});
  return { client, recipientId };
}

/** A new database on the PostgreSQL server at `serverUrl` for `work`, dropped afterwards. */
export async function withPostgresDatabase<T>(
  serverUrl: string,
  prefix: string,
  work: (url: string) => Promise<T>,
): Promise<T> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    return await work(url.toString());
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
