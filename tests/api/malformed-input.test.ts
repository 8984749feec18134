import { createHash, randomBytes, randomUUID } from 'node:crypto';
import diagnostics from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { URI, type TOTP } from 'otpauth';
import Stripe from 'stripe';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEFAULT_LIMITS, type Limits } from '../../src/server/plugins/rate-limit';
import { users } from '../../src/server/db/schema';
import { SINGLE_LINE_MESSAGE } from '../../src/shared/schemas/common';
import {
  buildTestApp,
  createOnboardedUser,
  createPrimaryUser,
  GOOD_PASSWORD,
  NEXT_OF_KIN,
  TestDevice,
  type TestApp,
} from '../setup/app';
import { startStripeStandIn, type StripeStandIn } from '../setup/stripe-stand-in.mjs';

// Every route the app registers, sent generated malformed input by every kind of caller that can
// reach it: the answer is always the client's fault (4xx), never a 500.
//
// A failure names its route, the request and the seed. FUZZ_SEED=<n> replays a run,
// FUZZ_RUNS_PER_ROUTE=<n> sends more, FUZZ_ROUTES=<regex> narrows it to some routes, and
// FUZZ_REPORT=<file> writes how each route answered (how deep the input reached) and why.

/** Requests across all routes in an ordinary run; FUZZ_RUNS_PER_ROUTE raises each route's share. */
const TOTAL_RUNS = 10_000;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2 ** 31;
const PART_BYTES = 64 * 1024;
/** Per-IP limits out of the way: a 429 would end each route's fuzzing before its handler. */
const NO_LIMITS = Object.fromEntries(
  Object.keys(DEFAULT_LIMITS).map((name) => [name, { max: 1_000_000, timeWindow: 60_000 }]),
) as Limits;

type Persona = 'owner' | 'recipient' | 'admin' | 'phone' | 'anonymous' | 'stranger';
const PERSONAS: Persona[] = ['owner', 'recipient', 'admin', 'phone', 'anonymous', 'stranger'];

interface FuzzRequest {
  persona: Persona;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

let t: TestApp;
/** Stripe, played over HTTP, so billing's routes run whole: checkout, portal and the webhook. */
let stripe: StripeStandIn;
const WEBHOOK_URL = '/api/billing/webhook';
const WEBHOOK_SECRET = 'whsec_malformed_input_0123456789';
const BILLING_ENV = {
  STRIPE_SECRET_KEY: 'sk_test_malformed_input',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_PRICE_STANDARD: 'price_standard_test',
  STRIPE_PRICE_PREMIUM: 'price_premium_test',
  STRIPE_PRICE_PROFESSIONAL: 'price_professional_test',
};
const routes: RouteOptions[] = [];
const errorLog: string[] = [];

// ---------------------------------------------------------------------------------------------
// The callers: an admin past the second factor, a paid owner on the primary device with a video
// in the cloud and an upload under way, the owner's next of kin signed in with the access code,
// a phone paired for import, a registered device with no session, and a caller with no device.

interface World {
  admin: { device: TestDevice; userId: number; username: string; recoveryCodes: string[] };
  owner: { device: TestDevice; userId: number; username: string; email: string };
  recipient: { device: TestDevice; userId: number; email: string; code: string };
  phone: { device: TestDevice; token: string };
  anonymous: TestDevice;
  /** Ids of real rows, so generated input reaches past 'not found' into the handlers. */
  ints: number[];
  uuids: string[];
  /** The uploads under way, which the upload routes' ids name. */
  uploads: string[];
  strings: string[];
  emails: string[];
  /** A playback link's query, valid until a fuzzed value replaces one of its parts. */
  contentQuery: Record<string, string>;
}
let world: World;
/** How often a fuzzed route left a caller signed out or gone (the summary line says). */
const restored = { admin: 0, owner: 0 };

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function expectStatus(res: { statusCode: number; body: string }, status: number) {
  if (res.statusCode !== status) throw new Error(`set-up: ${res.statusCode} ${res.body}`);
}

async function makeOwner() {
  const owner = await createOnboardedUser(t);
  await t.db.update(users).set({ subscriptionTier: 'premium' }).where(eq(users.id, owner.user.id));
  const recipientDevice = await TestDevice.create(t.app);
  await expectStatus(
    await recipientDevice.post('/api/login', {
      email: owner.nextOfKin.email,
      password: owner.nextOfKin.emergencyAccessCode,
      method: 'email_access_code',
      deviceId: recipientDevice.deviceId,
    }),
    200,
  );
  const paired = await owner.device.post('/api/pairings');
  await expectStatus(paired, 200);
  const { url, pairingId } = paired.json<{ url: string; pairingId: string }>();
  world = {
    ...world,
    owner: {
      device: owner.device,
      userId: owner.user.id,
      username: owner.user.username,
      email: owner.user.email,
    },
    recipient: {
      device: recipientDevice,
      userId: owner.nextOfKin.id,
      email: owner.nextOfKin.email,
      code: owner.nextOfKin.emergencyAccessCode,
    },
    phone: {
      device: await TestDevice.create(t.app),
      token: new URL(url).hash.replace('#pair=', ''),
    },
  };
  await sendVideoToCloud();
  world.uuids.push(pairingId);
}

/** One message indexed and copied to the cloud, its playback link kept. */
async function sendVideoToCloud() {
  const { device } = world.owner;
  const bytes = randomBytes(700);
  const id = await indexVideo();
  const started = await device.post('/api/uploads', {
    videoId: id,
    title: 'At the seaside',
    byteSize: bytes.length,
    sha256: sha256(bytes),
  });
  await expectStatus(started, 200);
  const { uploadId, parts } = started.json<{ uploadId: string; parts: Array<{ url: string }> }>();
  const put = await device.request({
    method: 'PUT',
    url: parts[0]!.url,
    payload: bytes,
    headers: { 'content-type': 'application/octet-stream' },
  });
  await expectStatus(put, 200);
  await expectStatus(
    await device.post(`/api/uploads/${uploadId}/complete`, {
      parts: [{ partNumber: 1, etag: put.headers.etag }],
    }),
    200,
  );
  const playback = await device.get(`/api/videos/${id}/playback`);
  await expectStatus(playback, 200);
  const link = new URL(playback.json<{ url: string }>().url, 'http://localhost');
  world.contentQuery = Object.fromEntries(link.searchParams);
  world.uuids.push(id, uploadId);
}

async function indexVideo() {
  const id = randomUUID();
  await expectStatus(
    await world.owner.device.post('/api/videos', {
      id,
      recipientId: world.recipient.userId,
      metadata: { byteSize: 700, durationMs: 1000, mimeType: 'video/webm' },
    }),
    201,
  );
  return id;
}

/** An upload under way, for the upload routes to find. */
async function startUpload() {
  const id = await indexVideo();
  const bytes = randomBytes(PART_BYTES + 1);
  const started = await world.owner.device.post('/api/uploads', {
    videoId: id,
    title: 'In the garden',
    byteSize: bytes.length,
    sha256: sha256(bytes),
  });
  await expectStatus(started, 200);
  const { uploadId } = started.json<{ uploadId: string }>();
  world.uuids.push(id, uploadId);
  world.uploads = [...world.uploads.slice(-3), uploadId];
}

/** An admin past the second factor: the installation's first account, or one made admin. */
async function makeAdmin(isFirst: boolean) {
  const admin = await createPrimaryUser(t);
  if (!isFirst) {
    await t.db.update(users).set({ isAdmin: true }).where(eq(users.id, admin.user.id));
  }
  const enrolment = await admin.device.post('/api/admin/2fa/enrol');
  await expectStatus(enrolment, 200);
  const { otpauthUri } = enrolment.json<{ otpauthUri: string }>();
  const totp = URI.parse(otpauthUri) as TOTP;
  const confirmed = await admin.device.post('/api/admin/2fa/confirm', { code: totp.generate() });
  await expectStatus(confirmed, 200);
  world.admin = {
    device: admin.device,
    userId: admin.user.id,
    username: admin.user.username,
    recoveryCodes: confirmed.json<{ recoveryCodes: string[] }>().recoveryCodes,
  };
}

/** Signs the admin in again with a recovery code; a new admin if that is no longer possible. */
async function signInAdmin() {
  restored.admin += 1;
  const { device, username, recoveryCodes } = world.admin;
  const signIn = await device.post('/api/login', {
    username,
    password: GOOD_PASSWORD,
    deviceId: device.deviceId,
  });
  const code = recoveryCodes.shift();
  if (signIn.statusCode !== 200 || !code) return makeAdmin(false);
  const verified = await device.post('/api/admin/2fa/verify', { code });
  if (verified.statusCode !== 200) await makeAdmin(false);
}

/**
 * Puts every caller back as it was: a fuzzed route may sign one out, downgrade or delete the
 * owner, or end the pairing. Cheap checks first; whatever broke is made again.
 */
async function restoreWorld() {
  const admin = await world.admin.device.get('/api/admin/2fa');
  if (admin.statusCode !== 200 || !admin.json<{ isVerified: boolean }>().isVerified) {
    await signInAdmin();
  }
  const status = await world.owner.device.get('/api/cloud/status');
  const recipient = await world.recipient.device.get('/api/recipient-home');
  const phone = await world.phone.device.get('/api/pairing', {
    'x-pairing-token': world.phone.token,
  });
  if (
    status.statusCode !== 200 ||
    !status.json<{ hasCloudSync: boolean }>().hasCloudSync ||
    recipient.statusCode !== 200 ||
    phone.statusCode !== 200
  ) {
    restored.owner += 1;
    await makeOwner();
  }
  await startUpload();
  world.uuids = world.uuids.slice(-8);
  world.ints = [world.owner.userId, world.recipient.userId, world.recipient.userId + 1];
  world.strings = [
    world.owner.device.deviceId,
    world.recipient.device.deviceId,
    world.anonymous.deviceId,
    world.phone.device.deviceId,
    world.recipient.code,
    world.owner.username,
    world.admin.username,
    'google',
    'apple',
    'oidc',
  ];
  world.emails = [world.recipient.email, world.owner.email];
}

// ---------------------------------------------------------------------------------------------
// Generated values. Most requests start from an input the route's own schema accepts (made from
// the schema and kept only if it passes) and change one part of it to something hostile: what a
// schema lets through is what reaches the handler and the database. The rest are generated from
// the schema with any part hostile, or are not what the schema describes at all.

const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0001\u001f\u007f',
  '\u0085\u2028\u2029',
  'line\nbreak',
  'é',
  'vidéo',
  '日本語',
  '😀',
  '\ud83d',
  '\u202eevil',
  '\u200b',
  '\ufeff',
  "'; drop table users; --",
  '%',
  '_',
  '\\',
  '%00',
  '../../etc/passwd',
  'null',
  'true',
  '-1',
  '0',
  '1.5',
  '2147483648',
  '9223372036854775808',
  '1e400',
  'NaN',
  '0000-01-01T00:00:00Z',
  '2026-02-30T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  'video/mp4;\u0000',
  'video/mp4;codecs=é',
  'x'.repeat(10_000),
];

const NASTY_NUMBERS = [
  0,
  -1,
  1.5,
  -0.5,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 32,
  2 ** 40,
  2 ** 53 - 1,
  2 ** 53,
  2 ** 63,
  -(2 ** 31) - 1,
  -(2 ** 63),
  1e308,
];

const nastyString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
);

const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  { weight: 3, arbitrary: fc.constantFrom<unknown>(...NASTY_NUMBERS) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [null], { $gt: '' }, [[[[]]]]),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** A hostile change to one valid value: made from it (NUL or more inside it), or put in its place. */
const REMOVE = Symbol('remove');
type Change = (current: unknown) => unknown;
const INJECTIONS: Change[] = [
  (current) => `${String(current)}\u0000`,
  (current) => `\u0000${String(current)}`,
  (current) => `${String(current)}é`,
  (current) => `${String(current)}😀`,
  (current) => `${String(current)}\u0007`,
  (current) => `${String(current)}\u2028`,
  (current) => `${String(current)}\ud800`,
  (current) => String(current).repeat(200),
  (current) => (typeof current === 'number' ? current * 2 ** 32 : 2 ** 40),
  (current) => (typeof current === 'number' ? -current : -1),
  (current) => (typeof current === 'number' ? current + 0.5 : 0.5),
  (current) => String(current),
  (current) => [current],
  () => REMOVE,
];
const change: fc.Arbitrary<Change> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...INJECTIONS) },
  { weight: 2, arbitrary: nastyValue.map((value) => () => value) },
);

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
}

function toJsonSchema(schema: unknown): JsonSchema | null {
  if (!(schema instanceof z.ZodType)) return null;
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

function bounds(node: JsonSchema) {
  const low =
    node.minimum ?? (node.exclusiveMinimum !== undefined ? node.exclusiveMinimum + 1 : -1e6);
  const high =
    node.maximum ?? (node.exclusiveMaximum !== undefined ? node.exclusiveMaximum - 1 : 1e6);
  return { low, high };
}

/** Stands for the sender's own device id in a body; replaced when the sender is chosen. */
const OWN_DEVICE = '0000000d-0000-4000-8000-00000000000d';
const PASSWORDS = [GOOD_PASSWORD, 'Roses&Scones-2027'];
const VIDEO_TYPES_SENT = [
  'video/webm',
  'video/webm;codecs=vp8,opus',
  'video/mp4',
  'video/quicktime',
];

/** A key wrap as a browser sends one: 'v1', a 12-byte IV and a sealed 32-byte key, base64url. */
const wrapShaped = fc
  .tuple(
    fc.uint8Array({ minLength: 12, maxLength: 12 }),
    fc.uint8Array({ minLength: 48, maxLength: 48 }),
  )
  .map(
    ([iv, sealed]) =>
      `v1.${Buffer.from(iv).toString('base64url')}.${Buffer.from(sealed).toString('base64url')}`,
  );

/**
 * A value the schema should accept, as a real client sends it: real ids, emails and codes where
 * the world has them, a password that meets the policy where a field is one.
 */
function cleanFor(node: JsonSchema, key = ''): fc.Arbitrary<unknown> {
  if (node.const !== undefined) return fc.constant(node.const);
  if (node.enum) return fc.constantFrom(...node.enum);
  const alternatives = node.anyOf ?? node.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((child) => cleanFor(child, key)));
  if (node.allOf?.length) return cleanFor(node.allOf[0]!, key);
  const type = Array.isArray(node.type) ? node.type[0] : node.type;
  switch (type) {
    case 'string': {
      const fits = (value: string) =>
        value.length >= (node.minLength ?? 0) &&
        value.length <= (node.maxLength ?? Infinity) &&
        (!node.pattern || new RegExp(node.pattern).test(value));
      const pool = key === 'uploadId' ? world.uploads : [...world.uuids, ...world.strings];
      const known = [...pool, ...world.emails].filter(fits);
      const made = (() => {
        // Rules a JSON schema cannot carry (refinements), met by what a real client sends.
        if (/wrap$/i.test(key)) return wrapShaped;
        if (/proof$/i.test(key) && node.pattern) return fc.stringMatching(new RegExp(node.pattern));
        if (/password/i.test(key)) return fc.constantFrom(...PASSWORDS);
        if (key === 'deviceId') return fc.constant(OWN_DEVICE);
        if (/mimetype/i.test(key)) return fc.constantFrom(...VIDEO_TYPES_SENT);
        if (/email/i.test(key)) {
          return fc.oneof(
            fc.constantFrom(...world.emails),
            fc.nat().map((n) => `someone${n}@example.test`),
          );
        }
        if (/code|token/i.test(key)) {
          return fc.oneof(
            fc.constantFrom(world.recipient.code),
            fc.stringMatching(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/),
            fc.stringMatching(/^[0-9]{6}$/),
          );
        }
        if (node.format === 'uuid') return fc.uuid();
        if (node.format === 'email') return fc.emailAddress();
        if (node.format === 'date-time') {
          return fc
            .integer({ min: -60_000, max: 60_000 })
            .map((offset) => new Date(Date.now() + offset).toISOString());
        }
        if (node.pattern) return fc.stringMatching(new RegExp(node.pattern));
        const min = Math.max(node.minLength ?? 0, 1);
        return fc.string({
          unit: fc.constantFrom(...'abcdefghij klmnop'),
          minLength: min,
          maxLength: Math.min(node.maxLength ?? 20, min + 20),
        });
      })().filter((value) => fits(value));
      return known.length > 0 ? fc.oneof(fc.constantFrom(...known), made) : made;
    }
    case 'integer':
    case 'number': {
      const { low, high } = bounds(node);
      // A recording's length and size as the plans allow them.
      if (/duration|bytesize/i.test(key)) {
        return fc.integer({ min: Math.max(low, 1), max: Math.min(high, 60_000) });
      }
      const known = world.ints.filter((value) => value >= low && value <= high);
      const made =
        type === 'integer'
          ? fc.integer({ min: Math.max(low, -(2 ** 31)), max: Math.min(high, 2 ** 31 - 1) })
          : fc.double({ min: low, max: high, noNaN: true });
      return known.length > 0 && /id$/i.test(key) ? fc.constantFrom(...known) : made;
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const min = node.minItems ?? 0;
      return fc.array(node.items ? cleanFor(node.items, key) : fc.string(), {
        minLength: min,
        maxLength: Math.min(node.maxItems ?? min + 3, min + 3),
      });
    }
    case 'object': {
      const shape = Object.fromEntries(
        Object.entries(node.properties ?? {}).map(([name, child]) => [name, cleanFor(child, name)]),
      );
      return fc.record(shape, { requiredKeys: node.required ?? [] });
    }
    default:
      return fc.string({ maxLength: 10 });
  }
}

/** A value generated from the schema, any part of it hostile. */
function anyFor(node: JsonSchema, key = ''): fc.Arbitrary<unknown> {
  const alternatives = node.anyOf ?? node.oneOf;
  const type = Array.isArray(node.type) ? node.type[0] : node.type;
  const inner: fc.Arbitrary<unknown> =
    type === 'object' && !alternatives
      ? fc.record(
          Object.fromEntries(
            Object.entries(node.properties ?? {}).map(([name, child]) => [
              name,
              anyFor(child, name),
            ]),
          ),
          { requiredKeys: node.required ?? [] },
        )
      : type === 'array' && node.items
        ? fc.array(anyFor(node.items, key), { maxLength: 4 })
        : cleanFor(node, key);
  return fc.oneof({ weight: 4, arbitrary: inner }, { weight: 1, arbitrary: nastyValue });
}

/** Inputs the route's zod schema accepts, found by generating from it and asking it. */
function passingInputs(node: JsonSchema, schema: z.ZodType, seed: number): unknown[] {
  const seen = new Map<string, unknown>();
  for (const value of fc.sample(cleanFor(node), { numRuns: 150, seed })) {
    if (schema.safeParse(value).success) seen.set(JSON.stringify(value), value);
    if (seen.size >= 12) break;
  }
  return [...seen.values()];
}

type Path = Array<string | number>;
function pathsIn(value: unknown, prefix: Path = []): Path[] {
  if (Array.isArray(value)) {
    return value.flatMap((item, index) => [
      [...prefix, index],
      ...pathsIn(item, [...prefix, index]),
    ]);
  }
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => [
      [...prefix, key],
      ...pathsIn(item, [...prefix, key]),
    ]);
  }
  return [];
}

/** One of the passing inputs with one part changed, removed, or a field added. */
function oneChangeTo(inputs: unknown[]): fc.Arbitrary<unknown> {
  return fc
    .tuple(
      fc.constantFrom(...inputs),
      fc.nat(),
      change,
      fc.constantFrom('extra', '__proto__', 'isAdmin', 'userId', 'constructor'),
    )
    .map(([input, index, changeIt, extraKey]) => {
      const copy = structuredClone(input);
      const paths = pathsIn(copy);
      if (paths.length === 0 || index % 7 === 0) {
        if (copy && typeof copy === 'object' && !Array.isArray(copy)) {
          return { ...copy, [extraKey]: changeIt(undefined) };
        }
        const changed = changeIt(copy);
        return changed === REMOVE ? undefined : changed;
      }
      const path = paths[index % paths.length]!;
      let parent = copy as Record<string | number, unknown>;
      for (const step of path.slice(0, -1)) parent = parent[step] as typeof parent;
      const last = path.at(-1)!;
      const changed = changeIt(parent[last]);
      if (changed === REMOVE) {
        if (Array.isArray(parent)) parent.splice(Number(last), 1);
        else delete parent[last];
      } else {
        parent[last] = changed;
      }
      return copy;
    });
}

/** The passing inputs of each schema, found once per route (the world's ids change between). */
const passing = new Map<unknown, unknown[]>();

/**
 * An input for a schema: one it accepts, or (hostile) one of those with one hostile change, or
 * one generated with any part hostile.
 */
function inputFor(schema: unknown, seed: number, hostile: boolean): fc.Arbitrary<unknown> {
  const node = toJsonSchema(schema);
  if (!node || !(schema instanceof z.ZodType)) return hostile ? nastyValue : fc.constant({});
  if (!passing.has(schema)) passing.set(schema, passingInputs(node, schema, seed));
  const inputs = passing.get(schema)!;
  if (inputs.length === 0) return hostile ? anyFor(node) : cleanFor(node);
  if (!hostile) return fc.constantFrom(...inputs);
  return fc.oneof(
    { weight: 5, arbitrary: oneChangeTo(inputs) },
    { weight: 2, arbitrary: anyFor(node) },
  );
}

// ---------------------------------------------------------------------------------------------
// Whole requests: who sends it, the address with its parameters and query, the body and its type.

const RAW_BODIES = [
  '{',
  '{"a":',
  '[',
  'null',
  '"text"',
  '1e999',
  '\u0000',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '['.repeat(5_000),
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
];

type Body = { payload?: string; type?: string };

/** Events as Stripe sends them, about a subscription Stripe has and ids it does not. */
function webhookEvents(): unknown[] {
  const customer = stripe.createCustomer({ email: 'elsewhere@example.test' });
  const subscription = stripe.createSubscription({
    customer: customer.id,
    priceId: BILLING_ENV.STRIPE_PRICE_PREMIUM,
  });
  const session = stripe.openCheckout({
    customer: customer.id,
    line_items: [{ price: BILLING_ENV.STRIPE_PRICE_STANDARD }],
  });
  return [
    stripe.buildEvent('customer.subscription.updated', subscription),
    stripe.buildEvent('customer.subscription.deleted', { ...subscription, id: 'sub_missing' }),
    stripe.buildEvent('checkout.session.completed', { ...session, subscription: subscription.id }),
    stripe.buildEvent('invoice.paid', stripe.invoiceFor(subscription, 'paid')),
    stripe.buildEvent('customer.created', customer),
  ];
}

/** The webhook's bodies: real events, each with one part changed, or anything at all. */
function webhookBodyFor(hostile: boolean): fc.Arbitrary<Body> {
  const asJson = (values: fc.Arbitrary<unknown>) =>
    values.map((value): Body => ({
      payload: JSON.stringify(value) ?? 'null',
      type: 'application/json',
    }));
  const events = webhookEvents();
  if (!hostile) return asJson(fc.constantFrom(...events));
  return fc.oneof(
    { weight: 6, arbitrary: asJson(oneChangeTo(events)) },
    { weight: 2, arbitrary: asJson(nastyValue) },
    {
      weight: 2,
      arbitrary: fc.record({
        payload: fc.constantFrom(...RAW_BODIES),
        type: fc.constant('application/json'),
      }),
    },
  );
}

function bodyFor(route: RouteOptions, seed: number, hostile: boolean): fc.Arbitrary<Body> {
  if (route.url === WEBHOOK_URL) return webhookBodyFor(hostile);
  const json = inputFor(route.schema?.body, seed, hostile).map(
    (body) => JSON.stringify(body) ?? 'null',
  );
  const asJson = json.map((payload): Body => ({ payload, type: 'application/json' }));
  if (!hostile) return asJson;
  return fc.oneof(
    { weight: 10, arbitrary: asJson },
    { weight: 1, arbitrary: fc.constant<Body>({}) },
    {
      weight: 2,
      arbitrary: fc.record({
        payload: fc.constantFrom(...RAW_BODIES),
        type: fc.constantFrom('application/json', 'application/json; charset=utf-8'),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        payload: json,
        type: fc.constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/octet-stream',
          'application/json; charset=latin1',
          'application/xml',
          'video/mp4',
          '',
          'application/json\u00e9',
        ),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.constant<Body>({ payload: 'x'.repeat(70_000), type: 'application/json' }),
    },
  );
}

/** Percent-encoded as a browser would; a lone surrogate goes as the replacement character. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const encode = (value: unknown) =>
  encodeURIComponent(
    (typeof value === 'string' ? value : (JSON.stringify(value) ?? '')).replace(
      LONE_SURROGATE,
      '\ufffd',
    ),
  );

const RAW_SEGMENTS = ['%', '%zz', '%00', '%C3%28', '..', '%2F', 'a'.repeat(5_000)];

/** The address's parameters, valid or not, each percent-encoded. */
function paramsFor(route: RouteOptions, names: string[], seed: number, hostile: boolean) {
  const schema = route.schema?.params ?? z.object({}).catchall(z.string());
  const values = inputFor(schema, seed, hostile).map((input) =>
    names.map((name, index) => {
      const value =
        input && typeof input === 'object' ? (input as Record<string, unknown>)[name] : input;
      return encode(value ?? world.strings[(seed + index) % world.strings.length]);
    }),
  );
  if (!hostile) return values;
  const raw = fc.array(fc.constantFrom(...RAW_SEGMENTS), {
    minLength: names.length,
    maxLength: names.length,
  });
  return fc.oneof({ weight: 4, arbitrary: values }, { weight: 1, arbitrary: raw });
}

const RAW_QUERIES = [
  'a=%',
  'a=%zz',
  '%00=%00',
  'limit=1&limit=2',
  'after[]=1',
  'q[a]=1',
  '&&&==',
  `q=${'a'.repeat(5_000)}`,
];

function queryFor(route: RouteOptions, seed: number, hostile: boolean): fc.Arbitrary<string> {
  const fromObject = (object: unknown) =>
    object && typeof object === 'object' && !Array.isArray(object)
      ? Object.entries(object)
          .filter(([, value]) => value !== undefined)
          .map(([key, value]) => `${encode(key)}=${encode(value)}`)
          .join('&')
      : `q=${encode(object)}`;
  // The signed link the fixtures made, as it is or with one part changed.
  const isSigned = route.url === '/api/videos/:id/content';
  if (!hostile) {
    if (isSigned) return fc.constant(fromObject(world.contentQuery));
    return route.schema?.querystring
      ? inputFor(route.schema.querystring, seed, false).map(fromObject)
      : fc.constant('');
  }
  const generated = isSigned
    ? oneChangeTo([world.contentQuery]).map(fromObject)
    : inputFor(route.schema?.querystring ?? z.object({}), seed, true).map(fromObject);
  return fc.oneof(
    { weight: 4, arbitrary: generated },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_QUERIES) },
  );
}

/** Header values as HTTP carries them: visible ASCII and Latin-1, no line breaks. */
const headerJunk = fc.oneof(
  fc.constantFrom(
    '',
    'null',
    '0',
    'é',
    'a'.repeat(2_000),
    'bytes=0-',
    'bytes=-1',
    'bytes=99999999999999999999-',
  ),
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0xff }).map((code) => String.fromCharCode(code)),
    maxLength: 60,
  }),
);

/** Signed-in callers more often than not: they reach the handlers behind the session checks. */
const PERSONA_WEIGHTS: Record<Persona, number> = {
  owner: 4,
  admin: 3,
  recipient: 2,
  phone: 2,
  anonymous: 1,
  stranger: 1,
};

type Part = 'none' | 'params' | 'query' | 'body' | 'headers';

/**
 * One request: a caller, and at most one hostile part (the address's parameters, the query, the
 * body, or a header), the rest as a real client sends them, so the hostile part reaches as far
 * into the handler as it can.
 */
function requestFor(route: RouteOptions, method: string, seed: number): fc.Arbitrary<FuzzRequest> {
  const names = [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]!);
  const hasBody = !['GET', 'HEAD', 'OPTIONS'].includes(method);
  const parts: Array<[Part, number]> = [
    ['none', 1],
    ['query', 2],
    ['headers', 1],
    ...(names.length > 0 ? ([['params', 2]] as Array<[Part, number]>) : []),
    ...(hasBody ? ([['body', 6]] as Array<[Part, number]>) : []),
  ];
  const persona = fc.oneof(
    ...PERSONAS.map((name) => ({ weight: PERSONA_WEIGHTS[name], arbitrary: fc.constant(name) })),
  );
  const requestWith = (hostile: Part) =>
    fc.record({
      persona,
      segments: paramsFor(route, names, seed, hostile === 'params'),
      wildcard: fc.constantFrom('', 'index.html', 'a/b/c', '%00', 'é', '..%2F..%2Fetc'),
      query: queryFor(route, seed, hostile === 'query'),
      body: hasBody ? bodyFor(route, seed, hostile === 'body') : fc.constant<Body>({}),
      extra:
        hostile === 'headers'
          ? fc.dictionary(
              fc.constantFrom(
                'x-device-id',
                'x-pairing-token',
                'range',
                'origin',
                'cookie',
                'accept',
                'content-type',
                'stripe-signature',
              ),
              headerJunk,
              { minKeys: 1, maxKeys: 2 },
            )
          : fc.constant<Record<string, string>>({}),
    });
  return fc
    .oneof(...parts.map(([part, weight]) => ({ weight, arbitrary: requestWith(part) })))
    .map(({ persona, segments, wildcard, query, body, extra }) => {
      let index = 0;
      const path = route.url
        .replace(/:([A-Za-z0-9_]+)/g, () => segments[index++]!)
        .replace('*', wildcard);
      const headers: Record<string, string> = {};
      if (persona === 'phone') headers['x-pairing-token'] = world.phone.token;
      if (body.type) headers['content-type'] = body.type;
      const ownDevice = deviceOf(persona)?.deviceId ?? randomUUID();
      const payload = body.payload?.replaceAll(OWN_DEVICE, ownDevice);
      // Signed as Stripe signs, so malformed events reach past the signature check.
      if (route.url === WEBHOOK_URL) {
        headers['stripe-signature'] = Stripe.webhooks.generateTestHeaderString({
          payload: payload ?? '',
          secret: WEBHOOK_SECRET,
        });
      }
      Object.assign(headers, extra);
      return {
        persona,
        method,
        url: query ? `${path}?${query}` : path,
        headers,
        ...(payload !== undefined ? { payload } : {}),
      };
    });
}

function deviceOf(persona: Persona): TestDevice | null {
  switch (persona) {
    case 'owner':
      return world.owner.device;
    case 'recipient':
      return world.recipient.device;
    case 'admin':
      return world.admin.device;
    case 'phone':
      return world.phone.device;
    case 'anonymous':
      return world.anonymous;
    case 'stranger':
      return null;
  }
}

async function send(app: FastifyInstance, request: FuzzRequest) {
  const options = {
    method: request.method as 'GET',
    url: request.url,
    headers: request.headers,
    ...(request.payload !== undefined ? { payload: request.payload } : {}),
  };
  const device = deviceOf(request.persona);
  return device ? device.request(options) : app.inject(options);
}

// ---------------------------------------------------------------------------------------------

const onInitialization = (message: unknown) => {
  const { fastify } = message as { fastify: FastifyInstance };
  fastify.addHook('onRoute', (route) => {
    routes.push(route);
  });
};

beforeAll(async () => {
  // Every route as the app registers it, with its schemas: nothing here lists them by hand.
  stripe = await startStripeStandIn({
    webhookUrl: `http://localhost${WEBHOOK_URL}`,
    webhookSecret: WEBHOOK_SECRET,
    deliver: async ({ payload, signature }) => {
      const res = await t.app.inject({
        method: 'POST',
        url: WEBHOOK_URL,
        payload,
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      });
      return { status: res.statusCode, body: res.body };
    },
  });
  diagnostics.subscribe('fastify.initialization', onInitialization);
  try {
    t = await buildTestApp({
      limits: NO_LIMITS,
      uploadPartBytes: PART_BYTES,
      // A 5xx's report carries the server's own account of it.
      env: { LOG_LEVEL: 'error', ...BILLING_ENV, STRIPE_API_BASE: stripe.apiBase },
      logStream: { write: (line) => void errorLog.push(line) },
    });
  } finally {
    diagnostics.unsubscribe('fastify.initialization', onInitialization);
  }
  world = {
    anonymous: await TestDevice.create(t.app),
    ints: [],
    uuids: [],
    uploads: [],
    strings: [],
    emails: [],
    contentQuery: {},
  } as unknown as World;
  await makeAdmin(true);
  await makeOwner();
}, 60_000);

afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

/** One request by a caller, for the cases below. */
async function as(persona: Persona, method: string, url: string, payload?: object) {
  const headers: Record<string, string> =
    persona === 'phone' ? { 'x-pairing-token': world.phone.token } : {};
  return send(t.app, {
    persona,
    method,
    url,
    headers: payload ? { ...headers, 'content-type': 'application/json' } : headers,
    ...(payload ? { payload: JSON.stringify(payload) } : {}),
  });
}

const RECIPIENT_FIELD = { recipientId: 'Please choose a recipient' };

describe('inputs that once answered 500', () => {
  beforeAll(async () => {
    await restoreWorld();
  });

  it('refuses ids beyond the database’s integer range in bodies, addresses and queries', async () => {
    const video = {
      id: randomUUID(),
      recipientId: 2 ** 40,
      metadata: { byteSize: 700, durationMs: 1000, mimeType: 'video/webm' },
    };
    const indexed = await as('owner', 'POST', '/api/videos', video);
    expect(indexed.statusCode).toBe(400);
    expect(indexed.json()).toMatchObject({ code: 'VALIDATION', fields: RECIPIENT_FIELD });

    const imported = await as('phone', 'POST', '/api/pairing/videos', {
      id: randomUUID(),
      recipientId: 2 ** 40,
      title: 'From the phone',
      durationMs: 1000,
      mimeType: 'video/mp4',
      byteSize: 700,
      sha256: 'a'.repeat(64),
    });
    expect(imported.statusCode).toBe(400);
    expect(imported.json()).toMatchObject({ code: 'VALIDATION', fields: RECIPIENT_FIELD });

    for (const [persona, method, url, message] of [
      ['owner', 'GET', '/api/prompts?recipientId=2147483648', 'Please choose a recipient'],
      ['owner', 'DELETE', '/api/recipients/9007199254740991', 'Recipient not found'],
      ['admin', 'GET', '/api/audit-logs?userId=2147483648', 'User not found'],
      ['admin', 'POST', '/api/admin/users/4294967296/admin', 'User not found'],
    ] as const) {
      const res = await as(
        persona,
        method,
        url,
        method === 'POST' ? { isAdmin: false } : undefined,
      );
      expect({ url, status: res.statusCode, message: res.json().message }).toEqual({
        url,
        status: 400,
        message,
      });
    }
    const deleted = await as('admin', 'DELETE', '/api/admin/users', { ids: [2 ** 31] });
    expect(deleted.statusCode).toBe(400);
    expect(deleted.json()).toMatchObject({ code: 'VALIDATION', message: 'User not found' });
  });

  it('refuses NUL and other hidden characters in text that reaches the database', async () => {
    const videoId = await indexVideo();
    const upload = await as('owner', 'POST', '/api/uploads', {
      videoId,
      title: 'At the seaside',
      promptId: 'first-words\u0000',
      byteSize: 700,
      sha256: 'a'.repeat(64),
    });
    expect(upload.statusCode).toBe(400);
    expect(upload.json()).toMatchObject({ fields: { promptId: SINGLE_LINE_MESSAGE } });

    const signIn = await as('anonymous', 'POST', '/api/login', {
      username: '\u0000',
      password: GOOD_PASSWORD,
      deviceId: world.anonymous.deviceId,
    });
    expect(signIn.statusCode).toBe(400);
    expect(signIn.json()).toMatchObject({ fields: { username: SINGLE_LINE_MESSAGE } });

    const search = await as('admin', 'GET', '/api/admin/users?q=hill%00');
    expect(search.statusCode).toBe(400);
    expect(search.json()).toMatchObject({ fields: { q: SINGLE_LINE_MESSAGE } });

    const device = await as('stranger', 'POST', '/api/device/register', {
      fingerprint: 'Mozilla/5.0\u0000',
    });
    expect(device.statusCode).toBe(400);
    expect(device.json()).toMatchObject({ fields: { fingerprint: SINGLE_LINE_MESSAGE } });
  });

  it('refuses a next of kin given the email of another of the owner’s recipients', async () => {
    // Before onboarding ends, adding a next of kin again replaces the first.
    const owner = await createPrimaryUser(t);
    const family = { firstName: 'Tom', lastName: 'Hill', category: 'family' };
    const nextOfKin = { ...NEXT_OF_KIN, email: `susan.${owner.user.username}@example.test` };
    expect((await owner.device.post('/api/recipients', nextOfKin)).statusCode).toBe(201);
    const tom = { ...family, email: `tom.${owner.user.username}@example.test` };
    expect((await owner.device.post('/api/recipients', tom)).statusCode).toBe(201);

    const clash = await owner.device.post('/api/recipients', { ...nextOfKin, email: tom.email });
    expect(clash.statusCode).toBe(400);
    expect(clash.json()).toMatchObject({
      message: 'You have already added someone with this email address.',
    });
    const { recipients } = (await owner.device.get('/api/recipients')).json<{
      recipients: Array<{ email: string; category: string }>;
    }>();
    expect(recipients.map((r) => [r.category, r.email]).sort()).toEqual([
      ['family', tom.email],
      ['next_of_kin', nextOfKin.email],
    ]);
  });
});

describe('malformed input', () => {
  it('answers every route’s generated malformed requests with a 4xx, never a 5xx', async () => {
    const methods = routes.flatMap((route) =>
      (Array.isArray(route.method) ? route.method : [route.method]).map((method) => ({
        route,
        method,
      })),
    );
    // The app has dozens of routes; a handful would mean the collection missed them.
    expect(methods.length).toBeGreaterThan(60);
    const runsPerRoute =
      Number(process.env.FUZZ_RUNS_PER_ROUTE) || Math.ceil(TOTAL_RUNS / methods.length);

    const failures: string[] = [];
    const statuses = new Map<string, Map<number, number>>();
    const reasons = new Map<string, number>();
    const routeSeconds = new Map<string, number>();
    let sent = 0;
    let sendSeconds = 0;
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    for (const [index, { route, method }] of methods.entries()) {
      if (
        process.env.FUZZ_ROUTES &&
        !new RegExp(process.env.FUZZ_ROUTES).test(`${method} ${route.url}`)
      )
        continue;
      await restoreWorld();
      passing.clear();
      const routeStarted = performance.now();
      const seed = SEED + index;
      const details = await fc.check(
        fc.asyncProperty(requestFor(route, method, seed), async (request) => {
          sent += 1;
          const sendStarted = performance.now();
          const res = await send(t.app, request);
          sendSeconds += (performance.now() - sendStarted) / 1000;
          const counts = statuses.get(`${method} ${route.url}`) ?? new Map<number, number>();
          counts.set(res.statusCode, (counts.get(res.statusCode) ?? 0) + 1);
          statuses.set(`${method} ${route.url}`, counts);
          if (process.env.FUZZ_REPORT && res.statusCode >= 400) {
            const why = /"message":"([^"]*)"/.exec(res.body)?.[1] ?? res.body.slice(0, 60);
            const key = `${method} ${route.url} ${request.persona} ${res.statusCode} ${why}`;
            reasons.set(key, (reasons.get(key) ?? 0) + 1);
          }
          if (res.statusCode >= 500) {
            throw new Error(
              `${res.statusCode} ${res.body.slice(0, 300)}\n  server log: ${errorLog.at(-1)?.slice(0, 1500)}`,
            );
          }
        }),
        { numRuns: runsPerRoute, seed, endOnFailure: true },
      );
      routeSeconds.set(`${method} ${route.url}`, (performance.now() - routeStarted) / 1000);
      if (details.failed) {
        const request = details.counterexample?.[0] as FuzzRequest | undefined;
        failures.push(
          `${method} ${route.url} (seed ${seed}, FUZZ_SEED=${SEED}): ${String(
            (details.errorInstance as Error | undefined)?.message,
          )}\n  as ${request?.persona}: ${JSON.stringify(request).slice(0, 600)}`,
        );
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    console.info(
      `malformed input: ${sent} requests to ${methods.length} routes in ${seconds.toFixed(1)} s, ${cpuSeconds.toFixed(1)} s of this process's CPU, ${sendSeconds.toFixed(1)} s answering; callers restored: ${JSON.stringify(restored)} (FUZZ_SEED=${SEED})`,
    );
    // FUZZ_REPORT=<file>: how each route answered and how long it took, and why each 400 was.
    if (process.env.FUZZ_REPORT) {
      const report = [...statuses].map(
        ([name, counts]) =>
          `${routeSeconds.get(name)?.toFixed(2)} s ${name} ${JSON.stringify(Object.fromEntries(counts))}`,
      );
      const why = [...reasons].map(([reason, count]) => `${count} ${reason}`).sort();
      writeFileSync(process.env.FUZZ_REPORT, [...report, '', ...why].join('\n'));
    }
    expect(failures).toEqual([]);
    if (!process.env.FUZZ_ROUTES) expect(sent).toBeGreaterThanOrEqual(TOTAL_RUNS);
  }, 600_000);
});
