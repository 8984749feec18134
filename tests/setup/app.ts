import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../src/server/app';
import type { Limits } from '../../src/server/plugins/rate-limit';
import { parseConfig, type TConfig } from '../../src/server/config';
import { createPostgresDatabase, type Database, type Db } from '../../src/server/db/client';
import type { TUser } from '../../src/shared/schemas/auth';
import { sessions, users } from '../../src/server/db/schema';
import { randomToken, sha256 } from '../../src/server/lib/crypto';
import { createServerTestDatabase, createTestDatabase, LOCAL_POSTGRES_URL } from './database';
import { startSmtpServer, type TestSmtpServer } from './smtp';

export const TEST_APP_URL = 'http://localhost:5000';

/** A clock a test moves forward instead of waiting. */
export class TestClock {
  private offsetMs = 0;
  now = (): Date => new Date(Date.now() + this.offsetMs);
  advance(ms: number): Date {
    this.offsetMs += ms;
    return this.now();
  }
}
export const GOOD_PASSWORD = 'Tulips&Tea-2026';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: TConfig;
  close(): Promise<void>;
}

/** The real app on a fresh database of its own. */
export async function buildTestApp(
  options: {
    env?: Record<string, string>;
    limits?: Partial<Limits>;
    webDir?: string;
    /** A database of the test's own (closed with the app); else a fresh one per file. */
    database?: Database;
    uploadPartBytes?: number;
    /** Where the app's log lines go (with LOG_LEVEL in `env`). */
    logStream?: { write(line: string): void };
    /** The app's clock for time-dependent rules; a test moves it forward. */
    clock?: { now(): Date };
    /** Whether the job schedule polls by itself; tests usually run jobs with their own clock. */
    startSchedule?: boolean;
  } = {},
): Promise<TestApp> {
  const database: Database = options.database ?? (await createTestDatabase());
  const config = parseConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    APP_URL: TEST_APP_URL,
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'memento-test-')),
    SESSION_SECRET: 'test-session-secret-that-is-long-enough-000',
    ...options.env,
  });
  const app = await buildApp({
    config,
    database,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.webDir ? { webDir: options.webDir } : {}),
    ...(options.uploadPartBytes ? { uploadPartBytes: options.uploadPartBytes } : {}),
    ...(options.logStream ? { logStream: options.logStream } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    startSchedule: options.startSchedule ?? false,
  });
  await app.ready();
  return {
    app,
    db: database.db,
    config,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** A fresh app of its own for one test, closed after it whatever happens. */
export async function withTestApp<T>(
  run: (testApp: TestApp) => Promise<T>,
  options?: Parameters<typeof buildTestApp>[0],
): Promise<T> {
  const testApp = await buildTestApp(options);
  try {
    return await run(testApp);
  } finally {
    await testApp.close();
  }
}

export type TestAppOptions = NonNullable<Parameters<typeof buildTestApp>[0]>;

export interface UseTestAppOptions extends TestAppOptions {
  /** A real SMTP server of the app's own, started first; the app sends its mail there. */
  mail?: boolean;
  /**
   * The installation's admin registers first (its first account is the admin), so the accounts
   * the tests make are ordinary; `true` for the default admin, or the admin's own fields.
   */
  admin?: true | Parameters<typeof createPrimaryUser>[1];
}

/** The app a file's (or a `describe`'s) tests share, with what `useTestApp` was asked for. */
export interface SharedTestApp extends TestApp {
  /** The SMTP server the app sends to (with `mail`). */
  readonly smtp: TestSmtpServer;
  /** The installation's admin, signed in on their primary device (with `admin`). */
  readonly admin: Awaited<ReturnType<typeof createPrimaryUser>>;
}

/**
 * For the tests of a file or of one `describe`: the real app on a fresh database of its own, built
 * before the first test and closed (with its SMTP server) after the last. The options may be a
 * function, called in `beforeAll`, for settings that exist only once the test's other servers
 * have started. Read the members inside tests and hooks: they exist once `beforeAll` has run.
 */
export function useTestApp(
  options: UseTestAppOptions | (() => UseTestAppOptions | Promise<UseTestAppOptions>) = {},
): SharedTestApp {
  let built: TestApp | undefined;
  let smtp: TestSmtpServer | undefined;
  let admin: SharedTestApp['admin'] | undefined;
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`useTestApp: ${what} exists only after beforeAll`);
    return value;
  };
  beforeAll(async () => {
    const {
      mail,
      admin: adminFields,
      ...appOptions
    } = typeof options === 'function' ? await options() : options;
    if (mail) smtp = await startSmtpServer();
    built = await buildTestApp({
      ...appOptions,
      env: { ...(smtp ? { SMTP_URL: smtp.url } : {}), ...appOptions.env },
    });
    if (adminFields)
      admin = await createPrimaryUser(built, adminFields === true ? {} : adminFields);
  });
  afterAll(async () => {
    await built?.close();
    await smtp?.close();
  });
  return {
    get app() {
      return ready(built, 'the app').app;
    },
    get db() {
      return ready(built, 'the app').db;
    },
    get config() {
      return ready(built, 'the app').config;
    },
    close: () => ready(built, 'the app').close(),
    get smtp() {
      return ready(smtp, 'the SMTP server (mail: true)');
    },
    get admin() {
      return ready(admin, 'the admin (admin: true)');
    },
  };
}

/**
 * For the tests of one `describe`: two servers sharing one fresh database on the local PostgreSQL,
 * as several instances of the app run behind one address, each with its own connections. The
 * installation's admin registers first (on `a`), so the accounts the tests make are ordinary.
 * Both are closed after the tests.
 */
export function useTwoTestApps(): { readonly a: TestApp; readonly b: TestApp } {
  const servers = {} as { a: TestApp; b: TestApp };
  beforeAll(async () => {
    const database = await createServerTestDatabase(LOCAL_POSTGRES_URL);
    servers.a = await buildTestApp({ database });
    servers.b = await buildTestApp({ database: createPostgresDatabase(database.url) });
    await createPrimaryUser(servers.a, { email: 'admin@care.test' });
  });
  afterAll(async () => {
    await servers.b?.close();
    await servers.a?.close();
  });
  return servers;
}

let ipCounter = 0;

/**
 * A browser as the server sees it: a device id of its own and a cookie jar. Each instance is a
 * separate device unless it is given an existing device id.
 */
export class TestDevice {
  private cookies = new Map<string, string>();

  private constructor(
    private readonly app: FastifyInstance,
    readonly deviceId: string,
    readonly ip: string,
  ) {}

  static async create(app: FastifyInstance, options: { ip?: string } = {}): Promise<TestDevice> {
    ipCounter += 1;
    const ip = options.ip ?? `203.0.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
    const res = await app.inject({
      method: 'POST',
      url: '/api/device/register',
      payload: { fingerprint: 'Mozilla/5.0 (test)|1280x800|24|en-GB|0|Linux' },
      remoteAddress: ip,
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36' },
    });
    if (res.statusCode !== 201) throw new Error(`device registration failed: ${res.body}`);
    return new TestDevice(app, res.json<{ deviceId: string }>().deviceId, ip);
  }

  /** The same device id with an empty cookie jar (another tab after the cookie went). */
  withoutCookies(): TestDevice {
    return new TestDevice(this.app, this.deviceId, this.ip);
  }

  /** The same browser talking to another app server (several instances on one database). */
  onApp(app: FastifyInstance): TestDevice {
    const other = new TestDevice(app, this.deviceId, this.ip);
    other.cookies = this.cookies;
    return other;
  }

  withDeviceId(deviceId: string): TestDevice {
    const other = new TestDevice(this.app, deviceId, this.ip);
    other.cookies = new Map(this.cookies);
    return other;
  }

  /** Puts a session cookie in the jar (for sign-ins whose endpoint arrives in a later issue). */
  setSessionCookie(signedValue: string): void {
    this.cookies.set('memento_session', signedValue);
  }

  get hasSessionCookie(): boolean {
    return this.cookies.has('memento_session');
  }

  /** The session cookie's value as the server signed it (token, a dot, the signature). */
  get sessionCookie(): string | undefined {
    return this.cookies.get('memento_session');
  }

  async request(
    options: InjectOptions & { method: string; url: string },
  ): Promise<LightMyRequestResponse> {
    const cookieHeader = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const res = await this.app.inject({
      remoteAddress: this.ip,
      ...options,
      headers: {
        'x-device-id': this.deviceId,
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36',
        ...(cookieHeader ? { cookie: cookieHeader } : {}),
        ...options.headers,
      },
    });
    for (const cookie of res.cookies as Array<{
      name: string;
      value: string;
      expires?: Date;
      maxAge?: number;
    }>) {
      const isCleared =
        cookie.value === '' ||
        (cookie.expires && cookie.expires.getTime() <= Date.now()) ||
        cookie.maxAge === 0;
      if (isCleared) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return res;
  }

  get(url: string, headers?: Record<string, string>) {
    return this.request({ method: 'GET', url, ...(headers ? { headers } : {}) });
  }

  post(url: string, payload: object = {}, headers?: Record<string, string>) {
    return this.request({ method: 'POST', url, payload, ...(headers ? { headers } : {}) });
  }

  delete(url: string, payload: object = {}) {
    return this.request({ method: 'DELETE', url, payload });
  }
}

let counter = 0;

/** A registration's body for this device (a `TestDevice`, or an `HttpDevice` of a server process). */
export function buildRegistration(
  device: Pick<TestDevice, 'deviceId'>,
  overrides: Record<string, unknown> = {},
) {
  counter += 1;
  const suffix = `${process.pid}${counter}`;
  return {
    firstName: 'Margaret',
    lastName: 'Hill',
    email: `margaret${suffix}@example.test`,
    username: `margaret${suffix}`,
    password: GOOD_PASSWORD,
    category: 'primary',
    createdById: null,
    tosAccepted: true,
    tosAcceptedAt: new Date().toISOString(),
    deviceId: device.deviceId,
    fingerprint: 'test',
    ...overrides,
  };
}

/** Registers a primary user through the API on a new device of its own. */
export async function createPrimaryUser(
  testApp: TestApp,
  overrides: Record<string, unknown> = {},
  options: { ip?: string } = {},
): Promise<{ device: TestDevice; user: TUser; password: string }> {
  const device = await TestDevice.create(testApp.app, options);
  const body = buildRegistration(device, overrides);
  const res = await device.post('/api/register', body);
  if (res.statusCode !== 201) throw new Error(`registration failed: ${res.body}`);
  return { device, user: res.json<TUser>(), password: body.password as string };
}

export const NEXT_OF_KIN = {
  firstName: 'Susan',
  lastName: 'Hill',
  phoneNumber: '+44 7700 900123',
  relationship: 'Daughter',
  category: 'next_of_kin',
} as const;

/** A primary user who has finished onboarding, with the next of kin's code as shown once. */
export async function createOnboardedUser(
  testApp: TestApp,
  overrides: { user?: Record<string, unknown>; nextOfKinEmail?: string } = {},
) {
  const primary = await createPrimaryUser(testApp, overrides.user);
  const nextOfKinEmail = overrides.nextOfKinEmail ?? `susan.${primary.user.username}@example.test`;
  const added = await primary.device.post('/api/recipients', {
    ...NEXT_OF_KIN,
    email: nextOfKinEmail,
  });
  if (added.statusCode !== 201) throw new Error(`next of kin failed: ${added.body}`);
  const done = await primary.device.post('/api/user/complete-onboarding', {});
  if (done.statusCode !== 200) throw new Error(`onboarding failed: ${done.body}`);
  const nextOfKin = added.json<{ id: number; emergencyAccessCode: string }>();
  return { ...primary, nextOfKin: { ...nextOfKin, email: nextOfKinEmail } };
}

/** Puts the user on this plan directly, as a paid or admin-set plan would. */
export async function setTier(t: TestApp, userId: number, tier: 'free' | 'standard' | 'premium') {
  await t.db.update(users).set({ subscriptionTier: tier }).where(eq(users.id, userId));
}

/**
 * A session for any user on a device, as the access-code sign-in of the recipients issue will
 * create it; lets tests reach rules that depend on how a session signed in (the dashboard's
 * break-glass needs a next of kin signed in with their code).
 */
export async function createSessionFor(
  testApp: TestApp,
  input: {
    userId: number;
    device: TestDevice;
    method: 'email_access_code' | 'username_password';
    createdAt?: Date;
  },
): Promise<void> {
  const token = randomToken();
  await testApp.db.insert(sessions).values({
    idHash: sha256(token),
    userId: input.userId,
    deviceId: input.device.deviceId,
    method: input.method,
    createdAt: input.createdAt ?? new Date(),
    // Outlives any time a test moves the app's clock forward by.
    expiresAt: new Date(Date.now() + 10 * 365 * 24 * 3600_000),
  });
  input.device.setSessionCookie(testApp.app.signCookie(token));
}
