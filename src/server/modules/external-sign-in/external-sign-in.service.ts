import * as oidc from 'openid-client';
import type { TExternalProvider } from '../../../shared/domain/enums';
import { MESSAGES } from '../../../shared/domain/errors';
import {
  describeExternalSignInError,
  type TExternalSignInError,
} from '../../../shared/domain/external-sign-in-errors';
import type { TExternalPending } from '../../../shared/schemas/external-sign-in';
import type { AppDeps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import { randomToken, sha256 } from '../../lib/crypto';
import { recordAccountEvent, recordAudit, type RequestContext } from '../audit/audit.service';
import type { DeviceRow } from '../devices/devices.repository';
import {
  findPrimaryByEmail,
  findUserById,
  type SessionUser,
  type UserRow,
} from '../users/users.repository';
import {
  advanceFlow,
  findIdentitiesOfUser,
  findIdentity,
  findLiveFlow,
  insertFlow,
  insertIdentity,
  type FlowRow,
  type IdentityRow,
} from './external-sign-in.repository';
import {
  needsUserInfo,
  readIdentity,
  type ProviderIdentity,
  type ProviderSettings,
} from './providers';

/** The part of the app's dependencies the external sign-in services use. */
export type Deps = Pick<
  AppDeps,
  'clock' | 'config' | 'db' | 'externalProviders' | 'log' | 'mail' | 'secretBox'
>;

/** A sign-in with a provider must come back within 10 minutes, and each step works once. */
export const FLOW_LIFETIME_MS = 10 * 60_000;

interface FlowChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** A refusal that sends the browser back with a plain message rather than an error page. */
export class SignInRefused extends Error {
  constructor(
    readonly reason: TExternalSignInError,
    readonly landing: string = '/auth',
  ) {
    super(reason);
  }
}

export function callbackUrl(deps: Deps, provider: TExternalProvider): string {
  return new URL(`/auth/${provider}/callback`, deps.config.APP_URL).toString();
}

function providerOrRefuse(deps: Deps, provider: TExternalProvider): ProviderSettings {
  const settings = deps.externalProviders.find(provider);
  if (!settings) throw new AppError('NOT_FOUND', 'This sign-in provider is not available');
  return settings;
}

export function auditDetailsFor(settings: ProviderSettings) {
  return { method: 'external_provider', provider: settings.id, providerName: settings.name };
}

export function expired(settings: ProviderSettings | undefined): AppError {
  return new AppError(
    'SIGN_IN_EXPIRED',
    describeExternalSignInError('expired', settings?.name ?? 'your provider'),
  );
}

/**
 * Step 1: a flow bound to this device (and, to link, to the signed-in account), with state, nonce
 * and PKCE verifier sealed server-side; the browser gets the flow's cookie and the provider's URL.
 */
export async function startExternalSignIn(
  deps: Deps,
  input: {
    provider: TExternalProvider;
    intent: 'sign_in' | 'link';
    device: DeviceRow;
    user: SessionUser | null;
  },
): Promise<{ flowToken: string; redirectUrl: string; expiresAt: Date }> {
  const settings = providerOrRefuse(deps, input.provider);
  if (input.intent === 'link') {
    if (!input.user) throw new AppError('UNAUTHENTICATED', MESSAGES.unauthenticated);
    if (!input.user.isPrimary) {
      throw new AppError('FORBIDDEN', 'Only the account holder can link a sign-in provider.');
    }
  }
  let client: oidc.Configuration;
  try {
    client = await deps.externalProviders.clientFor(settings);
  } catch (error) {
    deps.log.warn({ err: error, provider: settings.id }, 'external sign-in: discovery failed');
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      describeExternalSignInError('unavailable', settings.name),
    );
  }

  const checks: FlowChecks = {
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    codeVerifier: oidc.randomPKCECodeVerifier(),
  };
  const redirectUrl = oidc.buildAuthorizationUrl(client, {
    redirect_uri: callbackUrl(deps, settings.id),
    scope: settings.scope,
    state: checks.state,
    nonce: checks.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
    code_challenge_method: 'S256',
    ...(settings.responseMode === 'form_post' ? { response_mode: 'form_post' } : {}),
  });

  const flowToken = randomToken();
  const expiresAt = new Date(deps.clock.now().getTime() + FLOW_LIFETIME_MS);
  await insertFlow(deps.db, {
    idHash: sha256(flowToken),
    provider: settings.id,
    intent: input.intent,
    deviceId: input.device.id,
    userId: input.intent === 'link' ? input.user!.id : null,
    checksSealed: deps.secretBox.seal(JSON.stringify(checks)),
    expiresAt,
  });
  return { flowToken, redirectUrl: redirectUrl.toString(), expiresAt };
}

/** Where the person stands with this provider identity: signed up, a matching email, or new. */
export async function resolveStep(
  db: DbOrTx,
  provider: TExternalProvider,
  identity: ProviderIdentity,
): Promise<
  | { step: 'sign_in'; user: UserRow; identityRow: IdentityRow }
  | { step: 'link'; user: UserRow }
  | { step: 'terms' }
> {
  const identityRow = await findIdentity(db, provider, identity.subject);
  if (identityRow) {
    const user = await findUserById(db, identityRow.userId);
    if (user) return { step: 'sign_in', user, identityRow };
  }
  const existing = identity.email ? await findPrimaryByEmail(db, identity.email) : undefined;
  if (existing) return { step: 'link', user: existing };
  return { step: 'terms' };
}

/**
 * Step 2, `/auth/{provider}/callback`: the one use of the flow's checks. openid-client checks the
 * state, exchanges the code with the PKCE verifier and checks the ID token (signature, issuer,
 * audience, expiry, nonce). Answers where the browser goes next; every refusal is audited.
 */
export async function completeAtCallback(
  deps: Deps,
  context: RequestContext,
  input: {
    provider: TExternalProvider;
    flowToken: string | null;
    params: URLSearchParams;
  },
): Promise<string> {
  const settings = deps.externalProviders.find(input.provider);
  const refuse = (reason: TExternalSignInError, flow: FlowRow | undefined, note: string) =>
    refuseAtCallback(deps, context, { provider: input.provider, settings, reason, flow, note });

  if (!settings) return refuse('unavailable', undefined, 'provider not set up');
  const flow = input.flowToken
    ? await advanceFlow(deps.db, sha256(input.flowToken), 'started', { status: 'returned' })
    : undefined;
  if (!flow) return refuse('expired', undefined, 'sign-in expired or already used');
  if (flow.provider !== settings.id) return refuse('failed', flow, 'answer from another provider');

  const error = input.params.get('error');
  if (error) {
    const isCancelled = error === 'access_denied';
    return refuse(
      isCancelled ? 'cancelled' : 'failed',
      flow,
      isCancelled ? 'cancelled at the provider' : `the provider answered ${error.slice(0, 60)}`,
    );
  }

  const checks = JSON.parse(deps.secretBox.open(flow.checksSealed)) as FlowChecks;
  let identity: ProviderIdentity;
  try {
    identity = await readProviderAnswer(deps, { settings, checks, params: input.params });
  } catch (cause) {
    deps.log.info({ err: cause, provider: settings.id }, 'external sign-in refused');
    const isCancelled =
      cause instanceof oidc.AuthorizationResponseError && cause.error === 'access_denied';
    return refuse(isCancelled ? 'cancelled' : 'failed', flow, describeRefusal(cause));
  }

  if (flow.intent === 'link') return linkAtCallback(deps, context, { flow, settings, identity });

  const resolved = await resolveStep(deps.db, settings.id, identity);
  if (resolved.step === 'terms' && !identity.email) {
    return refuse('no_email', flow, 'the provider shared no email address');
  }
  // The rest happens on the page, with the device's header: sign in, accept the terms, or prove
  // the password of the account with this email.
  await advanceFlow(deps.db, flow.idHash, 'returned', {
    identitySealed: deps.secretBox.seal(JSON.stringify(identity)),
    expiresAt: new Date(deps.clock.now().getTime() + FLOW_LIFETIME_MS),
  });
  return '/auth?signIn=continue';
}

/** Every refusal at the callback is audited, then sends the browser back with a plain message. */
async function refuseAtCallback(
  deps: Deps,
  context: RequestContext,
  input: {
    provider: TExternalProvider;
    settings: ProviderSettings | undefined;
    reason: TExternalSignInError;
    flow: FlowRow | undefined;
    note: string;
  },
): Promise<never> {
  const { flow } = input;
  const user = flow?.userId ? await findUserById(deps.db, flow.userId) : undefined;
  // The provider's answer arrives without the device header: the flow knows the device.
  await recordAudit(
    deps.db,
    { ...context, deviceId: flow?.deviceId ?? null },
    {
      eventType: flow?.intent === 'link' ? 'provider_linked' : 'login_failed',
      userId: user?.id ?? null,
      username: user?.username ?? null,
      successful: false,
      details: {
        reason: input.note,
        method: 'external_provider',
        provider: input.provider,
        providerName: input.settings?.name ?? input.provider,
      },
    },
  );
  throw new SignInRefused(input.reason, flow?.intent === 'link' ? '/sign-in-methods' : '/auth');
}

/**
 * The provider's answer, checked by openid-client (state, the code exchanged with the PKCE
 * verifier, the ID token's signature, issuer, audience, expiry and nonce): who it says this is.
 */
async function readProviderAnswer(
  deps: Deps,
  input: { settings: ProviderSettings; checks: FlowChecks; params: URLSearchParams },
): Promise<ProviderIdentity> {
  const { settings, checks } = input;
  const client = await deps.externalProviders.clientFor(settings);
  const currentUrl = new URL(callbackUrl(deps, settings.id));
  for (const [key, value] of input.params) {
    if (key !== 'user') currentUrl.searchParams.set(key, value);
  }
  const tokens = await oidc.authorizationCodeGrant(client, currentUrl, {
    pkceCodeVerifier: checks.codeVerifier,
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    idTokenExpected: true,
  });
  const idToken = tokens.claims()!;
  // The subject check makes sure UserInfo speaks of the person the ID token names.
  const userInfo =
    tokens.access_token && needsUserInfo(idToken, client)
      ? await oidc.fetchUserInfo(client, tokens.access_token, idToken.sub)
      : undefined;
  return readIdentity(idToken, userInfo, input.params.get('user') ?? undefined);
}

/** What went wrong, for the audit row: oauth4webapi names the claim that did not match. */
function describeRefusal(cause: unknown): string {
  if (!(cause instanceof Error)) return 'not confirmed';
  // openid-client wraps oauth4webapi's error, whose own cause names the claim.
  const inner = cause.cause instanceof Error ? cause.cause : undefined;
  const claim = (inner?.cause as { claim?: unknown } | undefined)?.claim;
  const note = inner && typeof claim === 'string' ? `${inner.message}` : cause.message;
  return note.slice(0, 160);
}

async function linkAtCallback(
  deps: Deps,
  context: RequestContext,
  input: { flow: FlowRow; settings: ProviderSettings; identity: ProviderIdentity },
): Promise<string> {
  const { flow, settings, identity } = input;
  const user = await findUserById(deps.db, flow.userId!);
  if (!user) throw new SignInRefused('expired', '/sign-in-methods');
  const details = auditDetailsFor(settings);
  context = { ...context, deviceId: flow.deviceId };
  const refuse = async (reason: TExternalSignInError, note: string): Promise<never> => {
    await recordAccountEvent(deps.db, context, user, {
      eventType: 'provider_linked',
      successful: false,
      details: { ...details, reason: note },
    });
    throw new SignInRefused(reason, '/sign-in-methods');
  };

  const owner = await findIdentity(deps.db, settings.id, identity.subject);
  if (owner && owner.userId !== user.id) {
    return refuse('taken', 'linked to another account');
  }
  const mine = (await findIdentitiesOfUser(deps.db, user.id)).find(
    (row) => row.provider === settings.id,
  );
  if (mine && mine.subject !== identity.subject) {
    return refuse('already_linked', 'another account of this provider is linked');
  }
  if (!mine) {
    await deps.db.transaction(async (tx) => {
      await advanceFlow(tx, flow.idHash, 'returned', { status: 'finished' });
      await insertIdentity(tx, {
        userId: user.id,
        provider: settings.id,
        subject: identity.subject,
        email: identity.email,
      });
      await recordAccountEvent(tx, context, user, {
        eventType: 'provider_linked',
        details,
      });
    });
  }
  return `/sign-in-methods?linked=${settings.id}`;
}

/** A flow this device brought back from the provider, with who the provider says it is. */
export interface ReturnedFlow {
  flow: FlowRow;
  settings: ProviderSettings;
  identity: ProviderIdentity;
}

/** The flow this device brought back from the provider, with who the provider says it is. */
export async function findReturnedFlow(
  deps: Deps,
  input: { flowToken: string | null; device: DeviceRow },
): Promise<ReturnedFlow> {
  const flow = input.flowToken
    ? await findLiveFlow(deps.db, sha256(input.flowToken), 'returned')
    : undefined;
  const settings = flow ? deps.externalProviders.find(flow.provider) : undefined;
  // Bound to the device that started it: another browser with the cookie gets nothing.
  if (!flow || !settings || !flow.identitySealed || flow.deviceId !== input.device.id) {
    throw expired(settings);
  }
  const identity = JSON.parse(deps.secretBox.open(flow.identitySealed)) as ProviderIdentity;
  return { flow, settings, identity };
}

export async function findPendingSignIn(
  deps: Deps,
  input: { flowToken: string | null; device: DeviceRow },
): Promise<TExternalPending> {
  const { flow, settings, identity } = await findReturnedFlow(deps, input);
  const resolved = await resolveStep(deps.db, settings.id, identity);
  return {
    provider: settings.id,
    providerName: settings.name,
    intent: flow.intent,
    step: resolved.step,
    email: identity.email,
    firstName: identity.firstName,
    // Only when the provider vouched for the email is the account's username shown.
    username: resolved.step === 'link' && identity.isEmailVerified ? resolved.user.username : null,
  };
}

/** Ends the flow inside the caller's transaction; a second finish finds nothing to end. */
export async function endFlow(
  tx: DbOrTx,
  flow: FlowRow,
  settings: ProviderSettings,
): Promise<void> {
  const ended = await advanceFlow(tx, flow.idHash, 'returned', { status: 'finished' });
  if (!ended) throw expired(settings);
}
