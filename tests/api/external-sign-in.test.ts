import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/server/config';
import {
  auditLogs,
  devices,
  externalIdentities,
  externalSignInFlows,
  sessions,
  users,
} from '../../src/server/db/schema';
import { MESSAGES } from '../../src/shared/domain/errors';
import type { TAuditLogEntry } from '../../src/shared/schemas/safety-net';
import type { TExternalPending, TSignInMethods } from '../../src/shared/schemas/external-sign-in';
import type { TUser } from '../../src/shared/schemas/auth';
import type { TPublicConfig } from '../../src/shared/schemas/config';
import {
  buildTestApp,
  createPrimaryUser,
  GOOD_PASSWORD,
  TEST_APP_URL,
  TestDevice,
  type TestApp,
} from '../setup/app';
import {
  signInAtProvider,
  startTestIdentityProvider,
  subjectFor,
  type CallbackRequest,
  type ProviderPerson,
  type TestIdentityProvider,
} from '../setup/oidc-idp.mjs';

type TProvider = 'google' | 'apple' | 'oidc';

let idp: TestIdentityProvider;
let t: TestApp;
beforeAll(async () => {
  idp = await startTestIdentityProvider({ appUrls: [TEST_APP_URL] });
  t = await buildTestApp({ env: idp.env });
});
afterAll(async () => {
  await t.close();
  await idp.stop();
});

let counter = 0;
function uniqueEmail(name = 'rose') {
  counter += 1;
  return `${name}.${process.pid}.${counter}@example.test`;
}

async function startSignIn(device: TestDevice, provider: TProvider, intent = 'sign_in') {
  const res = await device.post(`/api/auth/${provider}/start`, { intent });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ redirectUrl: string }>().redirectUrl;
}

/** The browser arriving back at Memento's callback from the provider. */
async function sendCallback(device: TestDevice, request: CallbackRequest) {
  const url = new URL(request.url);
  const path = `${url.pathname}${url.search}`;
  return request.method === 'GET'
    ? device.request({ method: 'GET', url: path })
    : device.request({
        method: 'POST',
        url: path,
        payload: request.body.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
}

/** Start → provider → callback; answers where the callback sent the browser. */
async function goThroughProvider(
  device: TestDevice,
  provider: TProvider,
  person: ProviderPerson,
  options: { intent?: string; tamper?: (request: CallbackRequest) => CallbackRequest } = {},
) {
  const authorizationUrl = await startSignIn(device, provider, options.intent);
  const back = await signInAtProvider(authorizationUrl, person);
  const res = await sendCallback(device, options.tamper ? options.tamper(back) : back);
  expect(res.statusCode).toBe(302);
  return res.headers.location as string;
}

async function signUp(device: TestDevice, provider: TProvider, person: ProviderPerson) {
  expect(await goThroughProvider(device, provider, person)).toBe('/auth?signIn=continue');
  const res = await device.post('/api/auth/external/finish', {
    tosAccepted: true,
    tosAcceptedAt: new Date().toISOString(),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TUser>();
}

async function findUserByEmail(email: string) {
  const [row] = await t.db.select().from(users).where(eq(users.email, email));
  return row;
}

async function auditRowsOf(userId: number) {
  return t.db.select().from(auditLogs).where(eq(auditLogs.userId, userId)).orderBy(auditLogs.id);
}

describe('which providers show', () => {
  it('tells the browser the configured providers, with the name OIDC_NAME gives', async () => {
    const device = await TestDevice.create(t.app);
    const res = await device.get('/api/config');
    expect(res.json<TPublicConfig>().externalProviders).toEqual([
      { id: 'google', name: 'Google' },
      { id: 'apple', name: 'Apple' },
      { id: 'oidc', name: 'Sunrise Care Login' },
    ]);
  });

  it('shows none when none is configured, and refuses to start one', async () => {
    const bare = await buildTestApp();
    try {
      const device = await TestDevice.create(bare.app);
      expect((await device.get('/api/config')).json<TPublicConfig>().externalProviders).toEqual([]);
      const start = await device.post('/api/auth/google/start', {});
      expect(start.statusCode).toBe(404);
      expect(start.json()).toMatchObject({ message: 'This sign-in provider is not available' });
      const page = await device.get('/auth/google');
      expect(page.headers.location).toBe('/auth');
    } finally {
      await bare.close();
    }
  });

  it('refuses half a provider configuration, naming the missing settings', () => {
    expect(() => parseConfig({ APPLE_CLIENT_ID: 'x', APPLE_TEAM_ID: 'y' })).toThrow(
      /APPLE_KEY_ID: set APPLE_CLIENT_ID, APPLE_TEAM_ID, APPLE_KEY_ID, APPLE_PRIVATE_KEY together/,
    );
    expect(() => parseConfig({ OIDC_ISSUER: 'https://id.example.test' })).toThrow(/OIDC_NAME/);
  });

  it('GET /auth/{provider} hands over to the sign-in page, which binds the device', async () => {
    const device = await TestDevice.create(t.app);
    const res = await device.request({ method: 'GET', url: '/auth/oidc', headers: {} });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/auth?signInWith=oidc');
    expect((await device.get('/auth/facebook')).headers.location).toBe('/auth');
  });

  it('refuses an unknown provider with a clear message', async () => {
    const device = await TestDevice.create(t.app);
    const res = await device.post('/api/auth/facebook/start', {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'This sign-in provider is not available' });
  });
});

describe('signing up with a provider', () => {
  it('creates a primary account bound to this device once the terms are accepted', async () => {
    const device = await TestDevice.create(t.app);
    const email = uniqueEmail('ada');
    const authorizationUrl = new URL(await startSignIn(device, 'google'));
    // PKCE S256, state and nonce go to the provider; the flow is stored sealed, for 10 minutes.
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('state')).toBeTruthy();
    expect(authorizationUrl.searchParams.get('nonce')).toBeTruthy();
    const [flow] = await t.db
      .select()
      .from(externalSignInFlows)
      .where(eq(externalSignInFlows.deviceId, device.deviceId));
    expect(flow!.checksSealed).not.toContain(authorizationUrl.searchParams.get('state'));
    const lifetime = flow!.expiresAt.getTime() - flow!.createdAt.getTime();
    expect(lifetime).toBeGreaterThan(9 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(10 * 60_000 + 1000);

    const back = await signInAtProvider(authorizationUrl.toString(), {
      email,
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
    const landing = await sendCallback(device, back);
    expect(landing.headers.location).toBe('/auth?signIn=continue');

    const pending = await device.get('/api/auth/external/pending');
    expect(pending.json<TExternalPending>()).toEqual({
      provider: 'google',
      providerName: 'Google',
      intent: 'sign_in',
      step: 'terms',
      email,
      firstName: 'Ada',
      username: null,
    });

    const withoutTerms = await device.post('/api/auth/external/finish', {});
    expect(withoutTerms.statusCode).toBe(400);
    expect(withoutTerms.json()).toMatchObject({ message: 'Terms of Service must be accepted' });

    const finished = await device.post('/api/auth/external/finish', {
      tosAccepted: true,
      tosAcceptedAt: new Date().toISOString(),
    });
    expect(finished.statusCode).toBe(200);
    expect(finished.json<TUser>()).toMatchObject({
      email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      isPrimary: true,
      firstLogin: true,
      hasSetPassword: false,
      onboardingCompletedAt: null,
      deviceSync: { isPrimary: true, deviceId: device.deviceId },
    });
    expect((await device.get('/api/user')).statusCode).toBe(200);

    const stored = await findUserByEmail(email);
    expect(stored).toMatchObject({
      authProvider: 'google',
      passwordHash: null,
      tosAccepted: true,
      // Nothing needs the provider's tokens, so none are kept (decision 029).
      providerAccessToken: null,
      providerRefreshToken: null,
    });
    const [bound] = await t.db.select().from(devices).where(eq(devices.id, device.deviceId));
    expect(bound).toMatchObject({ userId: stored!.id, isPrimary: true });
    const identities = await t.db
      .select()
      .from(externalIdentities)
      .where(eq(externalIdentities.userId, stored!.id));
    expect(identities).toEqual([
      expect.objectContaining({ provider: 'google', subject: subjectFor(email), email }),
    ]);
    const [session] = await t.db.select().from(sessions).where(eq(sessions.userId, stored!.id));
    expect(session).toMatchObject({ deviceId: device.deviceId, method: 'external_provider' });

    const audit = await auditRowsOf(stored!.id);
    expect(audit).toEqual([
      expect.objectContaining({
        eventType: 'register',
        successful: true,
        details: expect.objectContaining({ provider: 'google', providerName: 'Google' }),
      }),
    ]);
    const shown = (await device.get('/api/audit-logs')).json<TAuditLogEntry[]>();
    expect(shown[0]).toMatchObject({ eventType: 'register' });
    expect(shown[0]!.details).toMatch(/^with Google/);

    // The flow is single use: finishing again does nothing.
    const again = await device.post('/api/auth/external/finish', {
      tosAccepted: true,
      tosAcceptedAt: new Date().toISOString(),
    });
    expect(again.statusCode).toBe(400);
  });

  it('signs up with Apple: the client secret is a signed JWT, the name comes by form POST', async () => {
    const device = await TestDevice.create(t.app);
    const email = uniqueEmail('grace');
    const before = idp.stats.appleSecretsAccepted;
    const authorizationUrl = await startSignIn(device, 'apple');
    expect(new URL(authorizationUrl).searchParams.get('response_mode')).toBe('form_post');
    const back = await signInAtProvider(authorizationUrl, {
      email,
      firstName: 'Grace',
      lastName: 'Hopper',
    });
    expect(back.method).toBe('POST');
    const res = await sendCallback(device, back);
    expect(res.headers.location).toBe('/auth?signIn=continue');
    expect(idp.stats.appleSecretsAccepted).toBe(before + 1);

    const finished = await device.post('/api/auth/external/finish', {
      tosAccepted: true,
      tosAcceptedAt: new Date().toISOString(),
    });
    expect(finished.json<TUser>()).toMatchObject({
      email,
      firstName: 'Grace',
      lastName: 'Hopper',
    });
    expect(await findUserByEmail(email)).toMatchObject({ authProvider: 'apple' });
  });

  it('signs up with the installation’s own provider', async () => {
    const device = await TestDevice.create(t.app);
    const email = uniqueEmail('mary');
    const user = await signUp(device, 'oidc', { email, firstName: 'Mary', lastName: 'Seacole' });
    expect(user).toMatchObject({ email, firstName: 'Mary' });
    expect(await findUserByEmail(email)).toMatchObject({ authProvider: 'oidc' });
    const [row] = await auditRowsOf(user.id);
    expect(row!.details).toMatchObject({ providerName: 'Sunrise Care Login' });
  });

  it('refuses a new account on a device that already holds one, as registration does', async () => {
    const { device } = await createPrimaryUser(t);
    const other = device.withoutCookies();
    expect(await goThroughProvider(other, 'google', { email: uniqueEmail() })).toBe(
      '/auth?signIn=continue',
    );
    const res = await other.post('/api/auth/external/finish', {
      tosAccepted: true,
      tosAcceptedAt: new Date().toISOString(),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'DEVICE_HAS_PRIMARY_ACCOUNT',
      message: MESSAGES.deviceHasPrimaryAccount,
    });
  });
});

describe('signing in with a provider', () => {
  it('signs an existing account in on its own device, and audits it', async () => {
    const device = await TestDevice.create(t.app);
    const email = uniqueEmail('ivy');
    const user = await signUp(device, 'google', { email });
    await device.post('/api/logout');
    expect((await device.get('/api/user')).statusCode).toBe(401);

    expect(await goThroughProvider(device, 'google', { email })).toBe('/auth?signIn=continue');
    expect((await device.get('/api/auth/external/pending')).json<TExternalPending>()).toMatchObject(
      { step: 'sign_in', providerName: 'Google' },
    );
    const res = await device.post('/api/auth/external/finish', {});
    expect(res.statusCode).toBe(200);
    expect(res.json<TUser>()).toMatchObject({ id: user.id, deviceStatus: 'primary' });
    expect((await device.get('/api/user')).json<TUser>().id).toBe(user.id);
    const rows = await auditRowsOf(user.id);
    expect(rows.at(-1)).toMatchObject({
      eventType: 'login',
      successful: true,
      details: expect.objectContaining({ providerName: 'Google' }),
    });
  });

  it('refuses the account on another device with the same Device Access Denied message', async () => {
    const home = await TestDevice.create(t.app);
    const email = uniqueEmail('olive');
    const user = await signUp(home, 'oidc', { email });

    const stranger = await TestDevice.create(t.app);
    expect(await goThroughProvider(stranger, 'oidc', { email })).toBe('/auth?signIn=continue');
    const res = await stranger.post('/api/auth/external/finish', {});
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      code: 'NOT_PRIMARY_DEVICE',
      message: MESSAGES.notPrimaryDevice,
    });
    expect(stranger.hasSessionCookie).toBe(false);
    expect((await stranger.get('/api/user')).statusCode).toBe(401);
    const rows = await auditRowsOf(user.id);
    expect(rows.at(-1)).toMatchObject({
      eventType: 'login_failed',
      successful: false,
      deviceId: stranger.deviceId,
      details: expect.objectContaining({ reason: 'not the primary device', provider: 'oidc' }),
    });
  });

  it('keeps the flow to the device that started it', async () => {
    const device = await TestDevice.create(t.app);
    expect(await goThroughProvider(device, 'google', { email: uniqueEmail() })).toBe(
      '/auth?signIn=continue',
    );
    const elsewhere = await TestDevice.create(t.app);
    const stolen = device.withDeviceId(elsewhere.deviceId);
    const res = await stolen.get('/api/auth/external/pending');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'SIGN_IN_EXPIRED' });
  });
});

describe('refused or cancelled sign-ins come back to /auth with a plain reason', () => {
  it('cancelled at the provider', async () => {
    const device = await TestDevice.create(t.app);
    const location = await goThroughProvider(device, 'google', { cancel: true });
    expect(location).toBe('/auth?signInError=cancelled&provider=google');
    expect(device.hasSessionCookie).toBe(false);
    const [row] = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.deviceId, device.deviceId), eq(auditLogs.eventType, 'login_failed')));
    expect(row).toMatchObject({
      successful: false,
      details: expect.objectContaining({ reason: 'cancelled at the provider' }),
    });
  });

  it('a tampered state is refused, and the flow cannot be replayed', async () => {
    const device = await TestDevice.create(t.app);
    const authorizationUrl = await startSignIn(device, 'google');
    const back = await signInAtProvider(authorizationUrl, { email: uniqueEmail() });
    const tampered = new URL(back.url);
    tampered.searchParams.set('state', 'forged-state-value');
    const res = await sendCallback(device, { method: 'GET', url: tampered.toString() });
    expect(res.headers.location).toBe('/auth?signInError=failed&provider=google');
    expect((await device.get('/api/user')).statusCode).toBe(401);

    const replay = await sendCallback(device, back);
    expect(replay.headers.location).toBe('/auth?signInError=expired&provider=google');
  });

  it('a tampered nonce is refused', async () => {
    const device = await TestDevice.create(t.app);
    const authorizationUrl = new URL(await startSignIn(device, 'oidc'));
    authorizationUrl.searchParams.set('nonce', 'a-nonce-the-app-never-chose');
    const back = await signInAtProvider(authorizationUrl.toString(), { email: uniqueEmail() });
    const res = await sendCallback(device, back);
    expect(res.headers.location).toBe('/auth?signInError=failed&provider=oidc');
    const [row] = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.deviceId, device.deviceId), eq(auditLogs.eventType, 'login_failed')));
    expect(JSON.stringify(row!.details)).toMatch(/nonce/i);
  });

  it('an expired flow is refused', async () => {
    const device = await TestDevice.create(t.app);
    const authorizationUrl = await startSignIn(device, 'google');
    const back = await signInAtProvider(authorizationUrl, { email: uniqueEmail() });
    await t.db
      .update(externalSignInFlows)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(externalSignInFlows.deviceId, device.deviceId));
    const res = await sendCallback(device, back);
    expect(res.headers.location).toBe('/auth?signInError=expired&provider=google');
  });

  it('an answer without the flow cookie is refused', async () => {
    const device = await TestDevice.create(t.app);
    const authorizationUrl = await startSignIn(device, 'google');
    const back = await signInAtProvider(authorizationUrl, { email: uniqueEmail() });
    const res = await sendCallback(device.withoutCookies(), back);
    expect(res.headers.location).toBe('/auth?signInError=expired&provider=google');
  });

  it('garbage at the callback is a redirect, never an error page', async () => {
    const device = await TestDevice.create(t.app);
    const res = await device.request({
      method: 'POST',
      url: '/auth/apple/callback',
      payload: 'code=%%%&state=',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toMatch(/^\/auth\?signInError=/);
  });
});

describe('an email that matches a password account', () => {
  it('is never linked silently: the password is asked once, then the provider signs in', async () => {
    const { user, device } = await createPrimaryUser(t);
    await device.post('/api/logout');

    expect(await goThroughProvider(device, 'google', { email: user.email })).toBe(
      '/auth?signIn=continue',
    );
    expect((await device.get('/api/auth/external/pending')).json<TExternalPending>()).toMatchObject(
      { step: 'link', email: user.email, username: user.username },
    );
    expect(
      await t.db.select().from(externalIdentities).where(eq(externalIdentities.userId, user.id)),
    ).toEqual([]);

    const noPassword = await device.post('/api/auth/external/finish', {});
    expect(noPassword.statusCode).toBe(400);
    const wrong = await device.post('/api/auth/external/finish', {
      password: 'Not-the-password-1',
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ message: MESSAGES.invalidCredentials });
    expect(
      await t.db.select().from(externalIdentities).where(eq(externalIdentities.userId, user.id)),
    ).toEqual([]);

    const right = await device.post('/api/auth/external/finish', { password: GOOD_PASSWORD });
    expect(right.statusCode).toBe(200);
    expect(right.json<TUser>().id).toBe(user.id);
    const linked = await t.db
      .select()
      .from(externalIdentities)
      .where(eq(externalIdentities.userId, user.id));
    expect(linked).toEqual([expect.objectContaining({ provider: 'google', email: user.email })]);
    const events = (await auditRowsOf(user.id)).map((row) => [row.eventType, row.successful]);
    expect(events).toEqual(
      expect.arrayContaining([
        ['login_failed', false],
        ['provider_linked', true],
        ['login', true],
      ]),
    );

    await device.post('/api/logout');
    expect(await goThroughProvider(device, 'google', { email: user.email })).toBe(
      '/auth?signIn=continue',
    );
    expect((await device.get('/api/auth/external/pending')).json<TExternalPending>().step).toBe(
      'sign_in',
    );
  });

  it('does not show the username when the provider did not vouch for the email', async () => {
    const { user, device } = await createPrimaryUser(t);
    await device.post('/api/logout');
    await goThroughProvider(device, 'oidc', { email: user.email, isEmailUnverified: true });
    expect((await device.get('/api/auth/external/pending')).json<TExternalPending>()).toMatchObject(
      { step: 'link', username: null },
    );
  });
});

describe('linking and unlinking from the account', () => {
  it('links a provider to the signed-in account, and refuses one linked elsewhere', async () => {
    const { user, device } = await createPrimaryUser(t);
    const email = uniqueEmail('care');
    const location = await goThroughProvider(device, 'oidc', { email }, { intent: 'link' });
    expect(location).toBe('/sign-in-methods?linked=oidc');
    const methods = (await device.get('/api/auth/identities')).json<TSignInMethods>();
    expect(methods).toMatchObject({
      hasPassword: true,
      identities: [{ provider: 'oidc', providerName: 'Sunrise Care Login', email }],
    });
    expect((await auditRowsOf(user.id)).at(-1)).toMatchObject({
      eventType: 'provider_linked',
      successful: true,
    });

    const other = await createPrimaryUser(t);
    const taken = await goThroughProvider(other.device, 'oidc', { email }, { intent: 'link' });
    expect(taken).toBe('/sign-in-methods?signInError=taken&provider=oidc');
    expect((await auditRowsOf(other.user.id)).at(-1)).toMatchObject({
      eventType: 'provider_linked',
      successful: false,
    });
  });

  it('asks for a session to link', async () => {
    const device = await TestDevice.create(t.app);
    const res = await device.post('/api/auth/google/start', { intent: 'link' });
    expect(res.statusCode).toBe(401);
  });

  it('unlinks only while another way to sign in remains', async () => {
    const device = await TestDevice.create(t.app);
    const user = await signUp(device, 'apple', { email: uniqueEmail('june') });

    const refused = await device.delete('/api/auth/identities/apple');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'LAST_SIGN_IN_METHOD',
      message:
        'This is the only way you can sign in, so it cannot be removed. Set a password or link another sign-in first.',
    });
    expect((await auditRowsOf(user.id)).at(-1)).toMatchObject({
      eventType: 'provider_unlinked',
      successful: false,
    });

    // D13: a provider sign-up chooses a password at first login; then unlinking is allowed.
    expect((await device.post('/api/setup-password', { password: GOOD_PASSWORD })).statusCode).toBe(
      200,
    );
    const removed = await device.delete('/api/auth/identities/apple');
    expect(removed.statusCode).toBe(200);
    expect(removed.json<TSignInMethods>()).toEqual({ hasPassword: true, identities: [] });
    expect((await auditRowsOf(user.id)).at(-1)).toMatchObject({
      eventType: 'provider_unlinked',
      successful: true,
      details: expect.objectContaining({ providerName: 'Apple' }),
    });
    const shown = (await device.get('/api/audit-logs')).json<TAuditLogEntry[]>();
    expect(shown[0]).toMatchObject({ eventType: 'provider_unlinked', successful: true });
    expect(shown[0]!.details).toMatch(/^with Apple/);

    const missing = await device.delete('/api/auth/identities/apple');
    expect(missing.statusCode).toBe(404);
  });
});
