import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/server/config';
import {
  auditLogs,
  devices,
  externalIdentities,
  externalSignInFlows,
  oneTimeCodes,
  sessions,
  users,
} from '../../src/server/db/schema';
import { MESSAGES } from '../../src/shared/domain/errors';
import type { TAuditLogEntry } from '../../src/shared/schemas/audit';
import type {
  TExternalLinkCodeResponse,
  TExternalPending,
  TSignInMethods,
} from '../../src/shared/schemas/external-sign-in';
import type { TUser } from '../../src/shared/schemas/auth';
import type { TPublicConfig } from '../../src/shared/schemas/config';
import {
  buildTestApp,
  createPrimaryUser,
  GOOD_PASSWORD,
  TEST_APP_URL,
  TestDevice,
  useTestApp,
} from '../setup/app';
import {
  signInAtProvider,
  startTestIdentityProvider,
  subjectFor,
  type CallbackRequest,
  type ProviderPerson,
  type TestIdentityProvider,
} from '../setup/oidc-idp.mjs';
import { extractCode } from '../setup/smtp';

type TProvider = 'google' | 'apple' | 'oidc';

let idp: TestIdentityProvider;
beforeAll(async () => {
  idp = await startTestIdentityProvider({ appUrls: [TEST_APP_URL] });
});
afterAll(async () => {
  await idp.stop();
});
const t = useTestApp(() => ({ mail: true, env: idp.env }));

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

/** The terms page's answer: accepted, now. */
function acceptedTerms() {
  return { tosAccepted: true, tosAcceptedAt: new Date().toISOString() };
}

async function signUp(device: TestDevice, provider: TProvider, person: ProviderPerson) {
  expect(await goThroughProvider(device, provider, person)).toBe('/auth?signIn=continue');
  const res = await device.post('/api/auth/external/finish', acceptedTerms());
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

    const finished = await device.post('/api/auth/external/finish', acceptedTerms());
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
    });
    // Nothing needs the provider's tokens, so there is nowhere to keep them.
    expect(stored).not.toHaveProperty('providerAccessToken');
    expect(stored).not.toHaveProperty('providerRefreshToken');
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
    const again = await device.post('/api/auth/external/finish', acceptedTerms());
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

    const finished = await device.post('/api/auth/external/finish', acceptedTerms());
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
    const res = await other.post('/api/auth/external/finish', acceptedTerms());
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

    // A provider sign-up chooses a password at first login; then unlinking is allowed.
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

describe('a provider that follows the standard: the email and name only from UserInfo', () => {
  // Google and the installation's own provider answer as oidc-provider does by default
  // (conformIdTokenClaims: the ID token carries only the subject); 'Apple' as Apple does: the
  // email in the ID token, the name in its form POST, and no UserInfo endpoint at all.
  let standard: TestIdentityProvider;
  let appleLike: TestIdentityProvider;
  beforeAll(async () => {
    standard = await startTestIdentityProvider({
      appUrls: [TEST_APP_URL],
      conformIdTokenClaims: true,
    });
    appleLike = await startTestIdentityProvider({ appUrls: [TEST_APP_URL], hasUserInfo: false });
  });
  afterAll(async () => {
    await standard.stop();
    await appleLike.stop();
  });
  const s = useTestApp(() => ({
    env: {
      ...standard.env,
      APPLE_ISSUER: appleLike.issuer,
      APPLE_PRIVATE_KEY: appleLike.env.APPLE_PRIVATE_KEY!,
    },
  }));

  it('signs a new person up end to end with what UserInfo says', async () => {
    const discovery = await fetch(`${standard.issuer}/.well-known/openid-configuration`);
    expect(await discovery.json()).toMatchObject({ userinfo_endpoint: expect.any(String) });
    const device = await TestDevice.create(s.app);
    const email = uniqueEmail('nell');
    const asked = standard.stats.userInfoAnswered;

    expect(
      await goThroughProvider(device, 'oidc', { email, firstName: 'Nell', lastName: 'Gwyn' }),
    ).toBe('/auth?signIn=continue');
    expect(standard.stats.userInfoAnswered).toBe(asked + 1);
    expect((await device.get('/api/auth/external/pending')).json<TExternalPending>()).toMatchObject(
      { step: 'terms', email, firstName: 'Nell' },
    );
    const finished = await device.post('/api/auth/external/finish', acceptedTerms());
    expect(finished.statusCode, finished.body).toBe(200);
    expect(finished.json<TUser>()).toMatchObject({ email, firstName: 'Nell', lastName: 'Gwyn' });
    const [stored] = await s.db.select().from(users).where(eq(users.email, email));
    expect(stored).toMatchObject({ authProvider: 'oidc', passwordHash: null });
    const identities = await s.db
      .select()
      .from(externalIdentities)
      .where(eq(externalIdentities.userId, stored!.id));
    expect(identities).toEqual([
      expect.objectContaining({ provider: 'oidc', subject: subjectFor(email), email }),
    ]);

    // Back again later: signed in on the subject alone.
    await device.post('/api/logout');
    expect(await goThroughProvider(device, 'oidc', { email })).toBe('/auth?signIn=continue');
    const again = await device.post('/api/auth/external/finish', {});
    expect(again.statusCode).toBe(200);
    expect(again.json<TUser>().id).toBe(stored!.id);
  });

  it('takes whether the email is verified from UserInfo too', async () => {
    const { user, device } = await createPrimaryUser(s);
    await device.post('/api/logout');
    await goThroughProvider(device, 'google', { email: user.email });
    expect((await device.get('/api/auth/external/pending')).json<TExternalPending>()).toMatchObject(
      { step: 'link', email: user.email, username: user.username },
    );

    const other = (await createPrimaryUser(s)).device.withoutCookies();
    await goThroughProvider(other, 'google', { email: user.email, isEmailUnverified: true });
    expect((await other.get('/api/auth/external/pending')).json<TExternalPending>()).toMatchObject({
      step: 'link',
      email: user.email,
      username: null,
    });
  });

  it('asks nothing of a provider without UserInfo (Apple): the ID token and its form POST do', async () => {
    const device = await TestDevice.create(s.app);
    const email = uniqueEmail('kit');
    const user = await signUp(device, 'apple', { email, firstName: 'Kit', lastName: 'Marlowe' });
    expect(user).toMatchObject({ email, firstName: 'Kit', lastName: 'Marlowe' });
    expect(appleLike.stats.appleSecretsAccepted).toBe(1);
    expect(appleLike.stats.userInfoAnswered).toBe(0);
  });
});

describe('proving the matching account with an emailed code instead of its password', () => {
  /** Back from the provider at the link step, with a code asked for and read from the mail. */
  async function askForCode(device: TestDevice, provider: TProvider, email: string) {
    expect(await goThroughProvider(device, provider, { email })).toBe('/auth?signIn=continue');
    expect((await device.get('/api/auth/external/pending')).json<TExternalPending>().step).toBe(
      'link',
    );
    const sentBefore = t.smtp.messages.length;
    const res = await device.post('/api/auth/external/link-code', {});
    expect(res.statusCode, res.body).toBe(200);
    // The sign-in lives on, so that there is time to read the mail.
    expect(String(res.headers['set-cookie'])).toMatch(/^memento_sign_in=.+; Expires=/);
    const mail = await t.smtp.waitFor(
      (m) => t.smtp.messages.indexOf(m) >= sentBefore && m.to.includes(email),
    );
    return { answer: res.json<TExternalLinkCodeResponse>(), mail, code: extractCode(mail, 8) };
  }

  async function identitiesOf(userId: number) {
    return t.db.select().from(externalIdentities).where(eq(externalIdentities.userId, userId));
  }

  async function codesOf(userId: number) {
    return t.db
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, 'provider_link')));
  }

  it('links a provider to an account that never set a password, and signs in', async () => {
    const device = await TestDevice.create(t.app);
    const email = uniqueEmail('wren');
    const user = await signUp(device, 'google', { email, firstName: 'Wren' });
    await device.post('/api/logout');

    const { answer, mail, code } = await askForCode(device, 'apple', email);
    expect(answer.message).toBe(
      `We sent a code to ${answer.maskedEmail}. It works for 30 minutes.`,
    );
    expect(answer.maskedEmail).toMatch(/^w•+@example\.test$/);
    expect(mail.subject).toBe('Your Memento code to sign in with Apple');
    expect(mail.text).toContain('Dear Wren,');
    expect(mail.text).toContain('Enter it there to link Apple to your account');
    const [stored] = await codesOf(user.id);
    expect(stored).toMatchObject({ deviceId: device.deviceId, attempts: 0, usedAt: null });
    const lifetime = stored!.expiresAt.getTime() - stored!.createdAt.getTime();
    expect(lifetime).toBeGreaterThan(29 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(30 * 60_000 + 1000);

    // Codes are typed without regard to case or hyphens, as every emailed code is.
    const res = await device.post('/api/auth/external/finish', {
      code: code.toLowerCase().replace('-', ' '),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TUser>()).toMatchObject({ id: user.id, deviceStatus: 'primary' });
    expect((await device.get('/api/user')).json<TUser>().id).toBe(user.id);
    expect((await identitiesOf(user.id)).map((row) => row.provider).sort()).toEqual([
      'apple',
      'google',
    ]);
    expect((await codesOf(user.id)).every((row) => row.usedAt !== null)).toBe(true);
    const rows = await auditRowsOf(user.id);
    expect(rows.slice(-2)).toEqual([
      expect.objectContaining({
        eventType: 'provider_linked',
        successful: true,
        deviceId: device.deviceId,
        details: expect.objectContaining({
          providerName: 'Apple',
          message: 'proven with a code sent by email',
        }),
      }),
      expect.objectContaining({ eventType: 'login', successful: true }),
    ]);

    // From now on Apple signs in by itself, and the used code proves nothing again.
    await device.post('/api/logout');
    expect(await goThroughProvider(device, 'apple', { email })).toBe('/auth?signIn=continue');
    expect((await device.get('/api/auth/external/pending')).json<TExternalPending>().step).toBe(
      'sign_in',
    );
    expect((await device.post('/api/auth/external/finish', {})).statusCode).toBe(200);
  });

  it('counts wrong codes: after five the code is dead, and nothing is linked', async () => {
    const { user, device } = await createPrimaryUser(t);
    await device.post('/api/logout');
    const { code } = await askForCode(device, 'oidc', user.email);
    const wrong = code.startsWith('A') ? 'BBBB-BBBB' : 'AAAA-AAAA';
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const res = await device.post('/api/auth/external/finish', { code: wrong });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'INVALID_CODE',
        message: 'This code is not right or has expired. Please check it, or ask for a new one.',
      });
    }
    const [stored] = await codesOf(user.id);
    expect(stored!.attempts).toBe(5);

    const right = await device.post('/api/auth/external/finish', { code });
    expect([400, 429]).toContain(right.statusCode);
    expect(device.hasSessionCookie).toBe(false);
    expect(await identitiesOf(user.id)).toEqual([]);
    const failures = (await auditRowsOf(user.id)).filter(
      (row) => row.eventType === 'provider_linked' && !row.successful,
    );
    expect(failures.length).toBeGreaterThanOrEqual(5);
    expect(failures[0]!.details).toMatchObject({ reason: 'wrong emailed code', provider: 'oidc' });
  });

  it('refuses an expired code; a new one works', async () => {
    const { user, device } = await createPrimaryUser(t);
    await device.post('/api/logout');
    const first = await askForCode(device, 'google', user.email);
    await t.db
      .update(oneTimeCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimeCodes.userId, user.id));
    const expired = await device.post('/api/auth/external/finish', { code: first.code });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({ code: 'INVALID_CODE' });
    expect(await identitiesOf(user.id)).toEqual([]);

    const sentBefore = t.smtp.messages.length;
    expect((await device.post('/api/auth/external/link-code', {})).statusCode).toBe(200);
    const mail = await t.smtp.waitFor(
      (m) => t.smtp.messages.indexOf(m) >= sentBefore && m.to.includes(user.email),
    );
    const res = await device.post('/api/auth/external/finish', { code: extractCode(mail, 8) });
    expect(res.statusCode, res.body).toBe(200);
    expect(await identitiesOf(user.id)).toEqual([
      expect.objectContaining({ provider: 'google', email: user.email }),
    ]);
  });

  it('a code for another account is useless', async () => {
    const rose = await createPrimaryUser(t);
    const lily = await createPrimaryUser(t);
    await rose.device.post('/api/logout');
    await lily.device.post('/api/logout');
    const roseCode = (await askForCode(rose.device, 'oidc', rose.user.email)).code;
    const lilyCode = (await askForCode(lily.device, 'oidc', lily.user.email)).code;

    const crossed = await rose.device.post('/api/auth/external/finish', { code: lilyCode });
    expect(crossed.statusCode).toBe(400);
    expect(crossed.json()).toMatchObject({ code: 'INVALID_CODE' });
    expect(await identitiesOf(rose.user.id)).toEqual([]);
    expect(await identitiesOf(lily.user.id)).toEqual([]);
    // Lily's own code is untouched by the wrong try on Rose's account.
    expect((await codesOf(lily.user.id))[0]!.attempts).toBe(0);

    expect(
      (await rose.device.post('/api/auth/external/finish', { code: roseCode })).json<TUser>().id,
    ).toBe(rose.user.id);
    expect(
      (await lily.device.post('/api/auth/external/finish', { code: lilyCode })).json<TUser>().id,
    ).toBe(lily.user.id);
  });

  it('sends nothing to a device that could not open the account, and caps the requests', async () => {
    const { user, device } = await createPrimaryUser(t);
    const stranger = await TestDevice.create(t.app);
    expect(await goThroughProvider(stranger, 'oidc', { email: user.email })).toBe(
      '/auth?signIn=continue',
    );
    const refused = await stranger.post('/api/auth/external/link-code', {});
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'NOT_PRIMARY_DEVICE',
      message: MESSAGES.notPrimaryDevice,
    });
    expect(await codesOf(user.id)).toEqual([]);
    // Nor can it try codes against the account.
    const guessed = await stranger.post('/api/auth/external/finish', { code: 'ABCD-EFGH' });
    expect(guessed.statusCode).toBe(403);
    expect(guessed.json()).toMatchObject({ code: 'NOT_PRIMARY_DEVICE' });

    await device.post('/api/logout');
    expect(await goThroughProvider(device, 'oidc', { email: user.email })).toBe(
      '/auth?signIn=continue',
    );
    for (let request = 1; request <= 5; request += 1) {
      expect((await device.post('/api/auth/external/link-code', {})).statusCode).toBe(200);
    }
    const capped = await device.post('/api/auth/external/link-code', {});
    expect(capped.statusCode).toBe(429);
    expect(capped.json<{ message: string }>().message).toMatch(
      /^We have sent several codes just now\. Please use the newest, or ask again in \d+ minutes?\.$/,
    );
    expect(await codesOf(user.id)).toHaveLength(5);
  });

  it('is only for the link step', async () => {
    const device = await TestDevice.create(t.app);
    expect(await goThroughProvider(device, 'google', { email: uniqueEmail('fern') })).toBe(
      '/auth?signIn=continue',
    );
    const res = await device.post('/api/auth/external/link-code', {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message: 'This sign-in does not need a code. Please continue.',
    });
    const none = await TestDevice.create(t.app);
    const expired = await none.post('/api/auth/external/link-code', {});
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({ code: 'SIGN_IN_EXPIRED' });
  });
});
