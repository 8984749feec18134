import { importPKCS8, SignJWT } from 'jose';
import * as oidc from 'openid-client';
import type { TExternalProvider } from '../../../shared/domain/enums';
import type { TExternalProviderInfo } from '../../../shared/schemas/external-sign-in';
import type { TConfig } from '../../config';

/** How long an answer from a provider may take before the sign-in is given up, in seconds. */
const PROVIDER_TIMEOUT_SECONDS = 10;
/** Apple's client secret is a short-lived JWT, made afresh for each code exchange. */
const APPLE_SECRET_LIFETIME = '5m';

export interface ProviderSettings {
  id: TExternalProvider;
  /** What the button says after 'Continue with'. */
  name: string;
  issuer: URL;
  clientId: string;
  /** A fixed secret (Google, OIDC), or one made per request (Apple). */
  makeClientSecret: () => Promise<string>;
  scope: string;
  /** Apple sends its answer as a form POST (it asks for that whenever name or email is wanted). */
  responseMode: 'query' | 'form_post';
}

/** Who the provider says the person is, from the ID token and UserInfo (never from the browser). */
export interface ProviderIdentity {
  subject: string;
  email: string | null;
  isEmailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
}

function appleClientSecret(config: TConfig): () => Promise<string> {
  let key: ReturnType<typeof importPKCS8> | undefined;
  return async () => {
    key ??= importPKCS8(config.APPLE_PRIVATE_KEY!, 'ES256');
    // Apple's documented form: ES256 with the key's id, issued by the team, for this client,
    // addressed to Apple's issuer.
    return new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: config.APPLE_KEY_ID! })
      .setIssuer(config.APPLE_TEAM_ID!)
      .setSubject(config.APPLE_CLIENT_ID!)
      .setAudience(config.APPLE_ISSUER.replace(/\/$/, ''))
      .setIssuedAt()
      .setExpirationTime(APPLE_SECRET_LIFETIME)
      .sign(await key);
  };
}

/** The providers this installation has set up, in the order their buttons show. */
export function readProviderSettings(config: TConfig): ProviderSettings[] {
  const settings: ProviderSettings[] = [];
  if (config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET) {
    const secret = config.GOOGLE_CLIENT_SECRET;
    settings.push({
      id: 'google',
      name: 'Google',
      issuer: new URL(config.GOOGLE_ISSUER),
      clientId: config.GOOGLE_CLIENT_ID,
      makeClientSecret: async () => secret,
      scope: 'openid email profile',
      responseMode: 'query',
    });
  }
  if (
    config.APPLE_CLIENT_ID &&
    config.APPLE_TEAM_ID &&
    config.APPLE_KEY_ID &&
    config.APPLE_PRIVATE_KEY
  ) {
    settings.push({
      id: 'apple',
      name: 'Apple',
      issuer: new URL(config.APPLE_ISSUER),
      clientId: config.APPLE_CLIENT_ID,
      makeClientSecret: appleClientSecret(config),
      scope: 'openid name email',
      responseMode: 'form_post',
    });
  }
  if (
    config.OIDC_ISSUER &&
    config.OIDC_CLIENT_ID &&
    config.OIDC_CLIENT_SECRET &&
    config.OIDC_NAME
  ) {
    const secret = config.OIDC_CLIENT_SECRET;
    settings.push({
      id: 'oidc',
      name: config.OIDC_NAME,
      issuer: new URL(config.OIDC_ISSUER),
      clientId: config.OIDC_CLIENT_ID,
      makeClientSecret: async () => secret,
      scope: 'openid email profile',
      responseMode: 'query',
    });
  }
  return settings;
}

/** Plain http only to this machine (a test or development identity provider), never further. */
function isLoopback(url: URL): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

/** The configured providers, each discovered once (again after a failure) from its issuer. */
export class ExternalProviders {
  private readonly byId: Map<TExternalProvider, ProviderSettings>;
  private readonly discovered = new Map<TExternalProvider, Promise<oidc.ServerMetadata>>();

  constructor(config: TConfig) {
    this.byId = new Map(readProviderSettings(config).map((settings) => [settings.id, settings]));
  }

  list(): TExternalProviderInfo[] {
    return [...this.byId.values()].map(({ id, name }) => ({ id, name }));
  }

  find(id: TExternalProvider): ProviderSettings | undefined {
    return this.byId.get(id);
  }

  /** A client for one sign-in step; Apple's secret is made fresh each time. */
  async clientFor(settings: ProviderSettings): Promise<oidc.Configuration> {
    const isInsecure = settings.issuer.protocol === 'http:' && isLoopback(settings.issuer);
    let metadata = this.discovered.get(settings.id);
    if (!metadata) {
      metadata = oidc
        .discovery(settings.issuer, settings.clientId, undefined, undefined, {
          timeout: PROVIDER_TIMEOUT_SECONDS,
          ...(isInsecure ? { execute: [oidc.allowInsecureRequests] } : {}),
        })
        .then((configuration) => configuration.serverMetadata());
      this.discovered.set(settings.id, metadata);
      metadata.catch(() => this.discovered.delete(settings.id));
    }
    const client = new oidc.Configuration(
      await metadata,
      settings.clientId,
      {},
      oidc.ClientSecretPost(await settings.makeClientSecret()),
    );
    client.timeout = PROVIDER_TIMEOUT_SECONDS;
    if (isInsecure) oidc.allowInsecureRequests(client);
    return client;
  }
}

function readName(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim().slice(0, 100) : null;
}

/**
 * Apple sends the person's name once, on the first authorization, beside the code in its form
 * POST (`user`), and never in the ID token; only the name is taken from it.
 */
function readAppleName(userParam: string | undefined): {
  firstName: string | null;
  lastName: string | null;
} {
  if (!userParam) return { firstName: null, lastName: null };
  try {
    const parsed = JSON.parse(userParam) as { name?: { firstName?: unknown; lastName?: unknown } };
    return {
      firstName: readName(parsed.name?.firstName),
      lastName: readName(parsed.name?.lastName),
    };
  } catch {
    return { firstName: null, lastName: null };
  }
}

const NAME_CLAIMS = ['name', 'given_name', 'family_name'] as const;

/**
 * A provider that follows the standard may keep the email and name out of the ID token and give
 * them only from its UserInfo endpoint; asked only then, and only where there is one (Apple has
 * none, and puts the email in the ID token).
 */
export function needsUserInfo(claims: oidc.IDToken, client: oidc.Configuration): boolean {
  const lacksEmail = typeof claims.email !== 'string';
  const lacksName = NAME_CLAIMS.every((claim) => readName(claims[claim]) === null);
  return (lacksEmail || lacksName) && Boolean(client.serverMetadata().userinfo_endpoint);
}

/**
 * The ID token's claims, with what it lacks taken from UserInfo. An email and whether it was
 * verified always come from the same answer, so one source's flag never vouches for another's
 * address.
 */
function mergeClaims(
  idToken: oidc.IDToken,
  userInfo: oidc.UserInfoResponse | undefined,
): Record<string, unknown> & { sub: string } {
  const merged: Record<string, unknown> & { sub: string } = { ...idToken };
  if (!userInfo) return merged;
  if (typeof idToken.email !== 'string' && typeof userInfo.email === 'string') {
    merged.email = userInfo.email;
    merged.email_verified = userInfo.email_verified;
  }
  for (const claim of NAME_CLAIMS) {
    if (readName(merged[claim]) === null) merged[claim] = userInfo[claim];
  }
  return merged;
}

export function readIdentity(
  idToken: oidc.IDToken,
  userInfo: oidc.UserInfoResponse | undefined,
  appleUserParam: string | undefined,
): ProviderIdentity {
  const claims = mergeClaims(idToken, userInfo);
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : null;
  // Apple sends booleans as strings.
  const isEmailVerified = claims.email_verified === true || claims.email_verified === 'true';
  const apple = readAppleName(appleUserParam);
  const [nameFirst, ...nameRest] = (readName(claims.name) ?? '').split(/\s+/);
  return {
    subject: claims.sub,
    email: email && email.length <= 254 ? email : null,
    isEmailVerified,
    firstName: readName(claims.given_name) ?? apple.firstName ?? readName(nameFirst),
    lastName: readName(claims.family_name) ?? apple.lastName ?? readName(nameRest.join(' ')),
  };
}
