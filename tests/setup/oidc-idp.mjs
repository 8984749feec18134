// A real OpenID Connect identity provider for the tests (oidc-provider), playing Google, Apple and
// an installation's own provider at once: one issuer, one client each. It listens on a port the
// operating system chooses. Used by the API tests (in their process) and by the browser tests'
// server script (tests/e2e/support/e2e-server.mjs).
//
// Its sign-in page asks for an email and a name (as a provider's account chooser would), and has
// a Cancel button that answers `access_denied`. Apple's client is checked as Apple checks it: its
// client secret must be an ES256 JWT signed with the key whose PEM the app gets as
// APPLE_PRIVATE_KEY, and its answer is a form POST carrying the person's name on the first
// authorization only.
import { createHash } from 'node:crypto';
import http from 'node:http';
import { exportJWK, exportPKCS8, generateKeyPair, jwtVerify } from 'jose';
import Provider from 'oidc-provider';

export const IDP_CLIENTS = {
  google: { clientId: 'memento-google', clientSecret: 'google-test-secret', label: 'Google' },
  apple: { clientId: 'memento-apple', teamId: 'TEAM123456', keyId: 'KEY1234567', label: 'Apple' },
  oidc: {
    clientId: 'memento-care-home',
    clientSecret: 'care-home-test-secret',
    label: 'Sunrise Care Login',
  },
};

function escapeHtml(value) {
  return String(value)
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

/** The same email always gets the same subject, as a real provider's account would. */
export function subjectFor(email) {
  return `sub-${createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 20)}`;
}

async function readForm(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function signInPage(uid, clientLabel) {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in to ${escapeHtml(clientLabel)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: sans-serif; font-size: 18px; max-width: 30rem; margin: 2rem auto">
<h1>Sign in to ${escapeHtml(clientLabel)}</h1>
<p>Test identity provider</p>
<form method="post" action="/interaction/${uid}/login">
  <p><label>Email <input name="email" type="email" required></label></p>
  <p><label>First name <input name="given_name"></label></p>
  <p><label>Last name <input name="family_name"></label></p>
  <p><label><input type="checkbox" name="unverified" value="1"> Email not verified</label></p>
  <p><button type="submit">Sign in</button></p>
</form>
<form method="post" action="/interaction/${uid}/abort"><button type="submit">Cancel</button></form>
</body></html>`;
}

/**
 * Starts the provider. `appUrls` are the Memento base URLs whose callbacks it accepts;
 * `issuerHost` 'localhost' makes it the same site as a Memento on http://localhost, so that
 * Apple's form POST brings back a SameSite=Lax cookie as it does over https with SameSite=None.
 * `conformIdTokenClaims` true (oidc-provider's own default, as the standard has it) keeps the
 * email and name out of the ID token, so they come only from the UserInfo endpoint;
 * `hasUserInfo` false leaves that endpoint out, as Apple does. Answers the issuer, the settings
 * Memento needs (as environment variables) and a way to stop it.
 */
export async function startTestIdentityProvider({
  appUrls,
  issuerHost = '127.0.0.1',
  conformIdTokenClaims = false,
  hasUserInfo = true,
}) {
  const server = http.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://${issuerHost}:${server.address().port}`;

  const signingKey = await generateKeyPair('RS256', { extractable: true });
  const appleKey = await generateKeyPair('ES256', { extractable: true });
  const applePrivateKeyPem = await exportPKCS8(appleKey.privateKey);

  /** subject → claims, filled in by the sign-in page. */
  const accounts = new Map();
  /** Accounts that authorized Apple's client before: Apple sends the name only the first time. */
  const appleAuthorized = new Set();
  const stats = { appleSecretsAccepted: 0, appleSecretsRefused: 0, userInfoAnswered: 0 };

  const callbacksOf = (provider) => appUrls.map((url) => `${url}/auth/${provider}/callback`);
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: IDP_CLIENTS.google.clientId,
        client_secret: IDP_CLIENTS.google.clientSecret,
        redirect_uris: callbacksOf('google'),
        token_endpoint_auth_method: 'client_secret_post',
      },
      {
        client_id: IDP_CLIENTS.apple.clientId,
        // Never compared: Apple's client secret is a signed JWT, checked below.
        client_secret: 'apple-client-secret-is-a-jwt',
        redirect_uris: callbacksOf('apple'),
        token_endpoint_auth_method: 'client_secret_post',
      },
      {
        client_id: IDP_CLIENTS.oidc.clientId,
        client_secret: IDP_CLIENTS.oidc.clientSecret,
        redirect_uris: callbacksOf('oidc'),
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: {
      keys: [{ ...(await exportJWK(signingKey.privateKey)), kid: 'test-signing', alg: 'RS256' }],
    },
    cookies: { keys: ['test-identity-provider-cookie-key'] },
    scopes: ['openid', 'email', 'profile', 'name'],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    // false is like Google and Apple: the person's email (and, for Google, name) are in the ID
    // token.
    conformIdTokenClaims,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false }, userinfo: { enabled: hasUserInfo } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx, sub) => {
      const claims = accounts.get(sub);
      if (!claims) return undefined;
      return { accountId: sub, claims: async () => ({ sub, ...claims }) };
    },
    // First-party clients: no consent screen.
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client.clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope('openid email profile name');
      await grant.save();
      return grant;
    },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!DOCTYPE html><html><body><h1>Identity provider error</h1><p>${escapeHtml(out.error)}: ${escapeHtml(out.error_description ?? '')}</p></body></html>`;
    },
  });

  // Apple's client secret: an ES256 JWT from the team, for this client, to this issuer.
  const compareClientSecret = provider.Client.prototype.compareClientSecret;
  provider.Client.prototype.compareClientSecret = async function compare(actual) {
    if (this.clientId !== IDP_CLIENTS.apple.clientId) return compareClientSecret.call(this, actual);
    try {
      const { protectedHeader } = await jwtVerify(actual, appleKey.publicKey, {
        algorithms: ['ES256'],
        issuer: IDP_CLIENTS.apple.teamId,
        subject: IDP_CLIENTS.apple.clientId,
        audience: issuer,
        maxTokenAge: '180 days',
      });
      const isAccepted = protectedHeader.kid === IDP_CLIENTS.apple.keyId;
      stats[isAccepted ? 'appleSecretsAccepted' : 'appleSecretsRefused'] += 1;
      return isAccepted;
    } catch {
      stats.appleSecretsRefused += 1;
      return false;
    }
  };

  // Apple's form POST carries `user` (the name, as JSON) on the first authorization only.
  provider.use(async (ctx, next) => {
    await next();
    const clientId = ctx.oidc?.client?.clientId;
    const accountId = ctx.oidc?.session?.accountId;
    if (
      clientId !== IDP_CLIENTS.apple.clientId ||
      typeof ctx.body !== 'string' ||
      !ctx.body.includes('name="code"') ||
      !accountId ||
      appleAuthorized.has(accountId)
    ) {
      return;
    }
    appleAuthorized.add(accountId);
    const claims = accounts.get(accountId) ?? {};
    const user = JSON.stringify({
      name: { firstName: claims.given_name ?? '', lastName: claims.family_name ?? '' },
      email: claims.email,
    });
    ctx.body = ctx.body.replace(
      '<noscript>',
      `<input type="hidden" name="user" value="${escapeHtml(user)}"/>\n<noscript>`,
    );
  });

  provider.use(async (ctx, next) => {
    await next();
    if (ctx.oidc?.route === 'userinfo' && ctx.status === 200) stats.userInfoAnswered += 1;
  });

  const callback = provider.callback();
  server.on('request', async (req, res) => {
    const match = /^\/interaction\/([^/]+)(?:\/(login|abort))?$/.exec(req.url ?? '');
    if (!match) return callback(req, res);
    try {
      const details = await provider.interactionDetails(req, res);
      const client = Object.values(IDP_CLIENTS).find(
        (entry) => entry.clientId === details.params.client_id,
      );
      if (!match[2]) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(signInPage(details.uid, client?.label ?? 'the provider'));
      }
      if (match[2] === 'abort') {
        return await provider.interactionFinished(
          req,
          res,
          { error: 'access_denied', error_description: 'End-User aborted interaction' },
          { mergeWithLastSubmission: false },
        );
      }
      const form = await readForm(req);
      const email = (form.get('email') ?? '').trim().toLowerCase();
      const sub = subjectFor(email);
      const givenName = form.get('given_name')?.trim() || undefined;
      const familyName = form.get('family_name')?.trim() || undefined;
      accounts.set(sub, {
        email,
        email_verified: !form.get('unverified'),
        ...(givenName ? { given_name: givenName } : {}),
        ...(familyName ? { family_name: familyName } : {}),
        ...(givenName || familyName
          ? { name: [givenName, familyName].filter(Boolean).join(' ') }
          : {}),
      });
      return await provider.interactionFinished(
        req,
        res,
        { login: { accountId: sub } },
        { mergeWithLastSubmission: false },
      );
    } catch (error) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(`interaction failed: ${error.message}`);
    }
  });

  return {
    issuer,
    stats,
    /** What Memento's environment needs to use this provider as Google, Apple and OIDC. */
    env: {
      GOOGLE_ISSUER: issuer,
      GOOGLE_CLIENT_ID: IDP_CLIENTS.google.clientId,
      GOOGLE_CLIENT_SECRET: IDP_CLIENTS.google.clientSecret,
      APPLE_ISSUER: issuer,
      APPLE_CLIENT_ID: IDP_CLIENTS.apple.clientId,
      APPLE_TEAM_ID: IDP_CLIENTS.apple.teamId,
      APPLE_KEY_ID: IDP_CLIENTS.apple.keyId,
      APPLE_PRIVATE_KEY: applePrivateKeyPem,
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: IDP_CLIENTS.oidc.clientId,
      OIDC_CLIENT_SECRET: IDP_CLIENTS.oidc.clientSecret,
      OIDC_NAME: IDP_CLIENTS.oidc.label,
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * What a browser does at the provider, over HTTP: opens the authorization URL, fills in the
 * sign-in page (or presses Cancel) and follows the provider back. Answers the request the
 * browser would then send to Memento's callback: a GET URL, or (Apple) a POST with a form body.
 */
export async function signInAtProvider(authorizationUrl, person) {
  const cookies = new Map();
  const send = async (url, init = {}) => {
    const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...init.headers, ...(cookie ? { cookie } : {}) },
    });
    for (const header of res.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const index = pair.indexOf('=');
      cookies.set(pair.slice(0, index), pair.slice(index + 1));
    }
    return res;
  };
  const follow = async (res, base) => new URL(res.headers.get('location'), base).toString();

  let res = await send(authorizationUrl);
  if (res.status !== 303 && res.status !== 302) {
    throw new Error(`the provider did not ask to sign in (${res.status}): ${await res.text()}`);
  }
  const interactionUrl = await follow(res, authorizationUrl);
  const action = person.cancel ? 'abort' : 'login';
  const form = new URLSearchParams({
    email: person.email ?? '',
    given_name: person.firstName ?? '',
    family_name: person.lastName ?? '',
    ...(person.isEmailUnverified ? { unverified: '1' } : {}),
  });
  res = await send(`${interactionUrl}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  let next = await follow(res, interactionUrl);
  // Back to the authorization endpoint, which answers Memento.
  for (let hop = 0; hop < 5; hop += 1) {
    if (!next.startsWith(new URL(authorizationUrl).origin)) return { method: 'GET', url: next };
    res = await send(next);
    if (res.status === 302 || res.status === 303) {
      next = await follow(res, next);
      continue;
    }
    const html = await res.text();
    const formAction = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (!formAction) throw new Error(`unexpected answer from the provider: ${html.slice(0, 300)}`);
    const body = new URLSearchParams();
    for (const [, name, value] of html.matchAll(
      /<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g,
    )) {
      body.set(
        name,
        value
          .replaceAll('&quot;', '"')
          .replaceAll('&lt;', '<')
          .replaceAll('&gt;', '>')
          .replaceAll('&#39;', "'")
          .replaceAll('&amp;', '&'),
      );
    }
    return { method: 'POST', url: formAction.replaceAll('&amp;', '&'), body };
  }
  throw new Error('the provider redirected too often');
}
