import { randomInt } from 'node:crypto';
import * as oidc from 'openid-client';
import { normalizeCode } from '../../../shared/domain/codes';
import type { TExternalProvider } from '../../../shared/domain/enums';
import { MESSAGES } from '../../../shared/domain/errors';
import {
  describeExternalSignInError,
  type TExternalSignInError,
} from '../../../shared/domain/external-sign-in-errors';
import type {
  TExternalFinishBody,
  TExternalLinkCodeResponse,
  TExternalPending,
  TSignInMethods,
} from '../../../shared/schemas/external-sign-in';
import type { AppDeps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import { randomToken, sha256, verifySecret } from '../../lib/crypto';
import {
  ATTEMPT_POLICIES,
  isFamiliarDevice,
  releaseAttempt,
  reserveAttempt,
  type AttemptPolicy,
} from '../audit/attempt-guard';
import { recordAudit, type RequestContext } from '../audit/audit.service';
import { KEY_LIMITS, type KeyLimit } from '../audit/throttle';
import { throttledMessage } from '../audit/throttle-messages';
import {
  assertMaySignInHere,
  checkCredentials,
  createPrimaryAccount,
  openSession,
  type SignedIn,
} from '../auth/auth.service';
import {
  addOneTimeCode,
  countWrongTry,
  findLiveOneTimeCodes,
  retireOneTimeCodes,
} from '../auth/one-time-codes.repository';
import { ONE_TIME_CODE_MAX_TRIES } from '../auth/passwords.service';
import { emailDeviceCode } from '../devices/device-move.service';
import type { DeviceRow } from '../devices/devices.repository';
import { providerLinkCodeMail } from './external-sign-in.mails';
import {
  findPrimaryByEmail,
  findUserById,
  findUserByUsername,
  type SessionUser,
  type UserRow,
} from '../users/users.repository';
import {
  advanceFlow,
  deleteIdentity,
  findIdentitiesOfUser,
  findIdentity,
  findLiveFlow,
  insertFlow,
  insertIdentity,
  markIdentityUsed,
  type FlowRow,
  type IdentityRow,
} from './external-sign-in.repository';
import {
  needsUserInfo,
  readIdentity,
  type ProviderIdentity,
  type ProviderSettings,
} from './providers';

/** The part of the app's dependencies this service uses. */
type Deps = Pick<
  AppDeps,
  'clock' | 'config' | 'db' | 'externalProviders' | 'log' | 'mail' | 'secretBox'
>;

/** A sign-in with a provider must come back within 10 minutes, and each step works once. */
export const FLOW_LIFETIME_MS = 10 * 60_000;

/** Codes to prove an account for linking are asked for as often as codes to move a device. */
const LINK_CODE_REQUESTS: KeyLimit = {
  ...KEY_LIMITS.deviceMovePerAccount,
  kind: 'provider_link:account',
};
/** And checked as reset codes are, counted apart from them. */
const LINK_CODE_CHECKS: AttemptPolicy = {
  ...ATTEMPT_POLICIES.resetCode,
  scope: 'provider_link_code',
};

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

function auditDetailsFor(settings: ProviderSettings) {
  return { method: 'external_provider', provider: settings.id, providerName: settings.name };
}

function expired(settings: ProviderSettings | undefined): AppError {
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
  const expiresAt = new Date(Date.now() + FLOW_LIFETIME_MS);
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
async function resolveStep(
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
  const refuse = async (
    reason: TExternalSignInError,
    flow: FlowRow | undefined,
    note: string,
  ): Promise<never> => {
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
          reason: note,
          method: 'external_provider',
          provider: input.provider,
          providerName: settings?.name ?? input.provider,
        },
      },
    );
    throw new SignInRefused(reason, flow?.intent === 'link' ? '/sign-in-methods' : '/auth');
  };

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
    identity = readIdentity(idToken, userInfo, input.params.get('user') ?? undefined);
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
    expiresAt: new Date(Date.now() + FLOW_LIFETIME_MS),
  });
  return '/auth?signIn=continue';
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
    await recordAudit(deps.db, context, {
      eventType: 'provider_linked',
      userId: user.id,
      username: user.username,
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
      await recordAudit(tx, context, {
        eventType: 'provider_linked',
        userId: user.id,
        username: user.username,
        details,
      });
    });
  }
  return `/sign-in-methods?linked=${settings.id}`;
}

/** The flow this device brought back from the provider, with who the provider says it is. */
async function findReturnedFlow(
  deps: Deps,
  input: { flowToken: string | null; device: DeviceRow },
): Promise<{ flow: FlowRow; settings: ProviderSettings; identity: ProviderIdentity }> {
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

/**
 * Instead of the password (never set, or forgotten): a code to the matching account's email,
 * for this device. Only a device that may open the account gets one sent, so a stranger
 * elsewhere cannot fill the owner's inbox.
 */
export async function emailLinkCode(
  deps: Deps,
  context: RequestContext,
  input: { flowToken: string | null; device: DeviceRow },
): Promise<TExternalLinkCodeResponse & { expiresAt: Date }> {
  const { flow, settings, identity } = await findReturnedFlow(deps, input);
  const resolved = await resolveStep(deps.db, settings.id, identity);
  if (resolved.step !== 'link') {
    throw new AppError('VALIDATION', 'This sign-in does not need a code. Please continue.');
  }
  const { user } = resolved;
  await assertMaySignInHere(deps.db, context, {
    user,
    device: input.device,
    auditDetails: auditDetailsFor(settings),
  });
  const sent = await emailDeviceCode(deps, {
    user,
    device: input.device,
    purpose: 'provider_link',
    limit: LINK_CODE_REQUESTS,
    // Every code sent to this device works until it expires: asking again never spoils one
    // already on its way.
    store: addOneTimeCode,
    makeMail: (code) =>
      providerLinkCodeMail({
        owner: user,
        code,
        providerName: settings.name,
        deviceName: input.device.deviceName,
      }),
  });
  // Time to read the mail: the sign-in lives on from now.
  const expiresAt = new Date(Date.now() + FLOW_LIFETIME_MS);
  if (!(await advanceFlow(deps.db, flow.idHash, 'returned', { expiresAt })))
    throw expired(settings);
  return { ...sent, expiresAt };
}

/** The emailed code, throttled like a reset code; each wrong one also counts against the codes. */
async function checkLinkCode(
  deps: Deps,
  context: RequestContext,
  input: { user: UserRow; device: DeviceRow; code: string; settings: ProviderSettings },
): Promise<void> {
  const { user, device } = input;
  const slot = await reserveAttempt(deps.db, {
    policy: LINK_CODE_CHECKS,
    account: `user:${user.id}`,
    deviceId: device.id,
    ip: context.ip,
    isFamiliarSource: await isFamiliarDevice(deps.db, [user.id], device.id),
    now: deps.clock.now(),
  });
  const auditFailure = (reason: string) =>
    recordAudit(deps.db, context, {
      eventType: 'provider_linked',
      userId: user.id,
      username: user.username,
      successful: false,
      details: { ...auditDetailsFor(input.settings), reason },
    });
  if (!slot.isAllowed) {
    await auditFailure(`throttled (${slot.reason})`);
    throw new AppError('RATE_LIMITED', throttledMessage(slot, deps.clock.now()));
  }

  const live = (
    await findLiveOneTimeCodes(
      deps.db,
      user.id,
      'provider_link',
      ONE_TIME_CODE_MAX_TRIES,
      deps.clock.now(),
    )
  ).filter((row) => row.deviceId === device.id);
  let isRight = false;
  for (const candidate of live) {
    if (await verifySecret(candidate.codeHash, normalizeCode(input.code))) {
      isRight = true;
      break;
    }
  }
  if (!isRight) {
    for (const row of live) await countWrongTry(deps.db, row.id);
    await auditFailure(live.length > 0 ? 'wrong emailed code' : 'no live emailed code');
    throw new AppError('INVALID_CODE', MESSAGES.deviceMoveCodeInvalid, {
      code: MESSAGES.deviceMoveCodeInvalid,
    });
  }
  await releaseAttempt(deps.db, slot);
}

/** Usernames for provider sign-ups, from the email's local part, made unique with digits. */
async function chooseUsername(db: DbOrTx, email: string): Promise<string> {
  const local = (email.split('@')[0] ?? '').toLowerCase().replace(/[^a-z0-9._-]/g, '');
  const stem = (local.length >= 3 ? local : `member${local}`).slice(0, 30);
  if (!(await findUserByUsername(db, stem))) return stem;
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const candidate = `${stem}${randomInt(100, 100_000)}`;
    if (!(await findUserByUsername(db, candidate))) return candidate;
  }
  return `${stem}-${sha256(randomToken()).slice(0, 8)}`;
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** Ends the flow inside the caller's transaction; a second finish finds nothing to end. */
async function endFlow(tx: DbOrTx, flow: FlowRow, settings: ProviderSettings): Promise<void> {
  const ended = await advanceFlow(tx, flow.idHash, 'returned', { status: 'finished' });
  if (!ended) throw expired(settings);
}

/**
 * Step 3, from the page with the device's header: signs in exactly as a password does (same
 * device rule, same session), creates the account once the terms are accepted, or links the
 * account with this email once its password is proven.
 */
export async function finishExternalSignIn(
  deps: Deps,
  context: RequestContext,
  input: {
    flowToken: string | null;
    device: DeviceRow;
    body: TExternalFinishBody;
    previousSessionIdHash: string | null;
  },
): Promise<SignedIn> {
  const { device, body } = input;
  const { flow, settings, identity } = await findReturnedFlow(deps, input);
  const resolved = await resolveStep(deps.db, settings.id, identity);
  const auditDetails = auditDetailsFor(settings);
  const session = {
    device,
    previousSessionIdHash: input.previousSessionIdHash,
    method: 'external_provider' as const,
    auditDetails,
  };

  if (resolved.step === 'sign_in') {
    await assertMaySignInHere(deps.db, context, { user: resolved.user, device, auditDetails });
    return deps.db.transaction(async (tx) => {
      await endFlow(tx, flow, settings);
      await markIdentityUsed(tx, resolved.identityRow.id, deps.clock.now());
      return openSession(tx, context, { ...session, user: resolved.user, now: deps.clock.now() });
    });
  }

  if (resolved.step === 'link') {
    if (!body.password && !body.code) {
      throw new AppError('VALIDATION', 'Password is required', {
        password: 'Password is required',
      });
    }
    // Never linked on the email alone: the account's own password, throttled and audited as
    // any sign-in, or a code sent to the account's email.
    const isByCode = Boolean(body.code);
    let user = resolved.user;
    if (body.code) {
      // Codes go only to devices that may open the account, so no other device has one to try.
      await assertMaySignInHere(deps.db, context, { user, device, auditDetails });
      await checkLinkCode(deps, context, { user, device, code: body.code, settings });
    } else {
      user = await checkCredentials(deps.db, context, {
        device,
        username: resolved.user.username,
        password: body.password!,
        now: deps.clock.now(),
      });
      await assertMaySignInHere(deps.db, context, { user, device, auditDetails });
    }
    return deps.db.transaction(async (tx) => {
      await endFlow(tx, flow, settings);
      if (isByCode) await retireOneTimeCodes(tx, user.id, 'provider_link', deps.clock.now());
      await insertIdentity(tx, {
        userId: user.id,
        provider: settings.id,
        subject: identity.subject,
        email: identity.email,
        lastSignInAt: new Date(),
      });
      await recordAudit(tx, context, {
        eventType: 'provider_linked',
        userId: user.id,
        username: user.username,
        details: isByCode
          ? { ...auditDetails, message: 'proven with a code sent by email' }
          : auditDetails,
      });
      return openSession(tx, context, { ...session, user, now: deps.clock.now() });
    });
  }

  if (!body.tosAccepted || !body.tosAcceptedAt) {
    throw new AppError('VALIDATION', MESSAGES.tosRequired, { tosAccepted: MESSAGES.tosRequired });
  }
  const email = identity.email!;
  const localPart = email.split('@')[0] ?? '';
  return createPrimaryAccount(deps.db, deps.config, context, {
    device,
    account: {
      username: await chooseUsername(deps.db, email),
      passwordHash: null,
      firstName: identity.firstName ?? capitalise(localPart.split(/[._-]/)[0] ?? localPart),
      lastName: identity.lastName ?? '',
      email,
      tosAcceptedAt: new Date(body.tosAcceptedAt),
      authProvider: settings.id,
    },
    method: 'external_provider',
    auditDetails,
    afterInsert: async (tx, user) => {
      await endFlow(tx, flow, settings);
      await insertIdentity(tx, {
        userId: user.id,
        provider: settings.id,
        subject: identity.subject,
        email,
        lastSignInAt: new Date(),
      });
    },
    now: deps.clock.now(),
  });
}

export async function listSignInMethods(deps: Deps, user: SessionUser): Promise<TSignInMethods> {
  const row = await findUserById(deps.db, user.id);
  const identities = await findIdentitiesOfUser(deps.db, user.id);
  return {
    hasPassword: Boolean(row?.passwordHash),
    identities: identities.map((identity) => ({
      provider: identity.provider,
      providerName: deps.externalProviders.find(identity.provider)?.name ?? identity.provider,
      email: identity.email,
      linkedAt: identity.createdAt.toISOString(),
      lastSignInAt: identity.lastSignInAt?.toISOString() ?? null,
    })),
  };
}

export const LAST_SIGN_IN_METHOD_MESSAGE =
  'This is the only way you can sign in, so it cannot be removed. Set a password or link another sign-in first.';

/** A provider may be unlinked only while another way to sign in remains (a password, another provider). */
export async function unlinkProvider(
  deps: Deps,
  context: RequestContext,
  input: { user: SessionUser; provider: TExternalProvider },
): Promise<TSignInMethods> {
  const { user } = input;
  const identities = await findIdentitiesOfUser(deps.db, user.id);
  const target = identities.find((identity) => identity.provider === input.provider);
  if (!target) throw new AppError('NOT_FOUND', 'This sign-in is not linked to your account.');
  const providerName = deps.externalProviders.find(input.provider)?.name ?? input.provider;
  const details = { method: 'external_provider', provider: input.provider, providerName };
  const row = await findUserById(deps.db, user.id);
  const hasOtherWay = Boolean(row?.passwordHash) || identities.length > 1;
  if (!hasOtherWay) {
    await recordAudit(deps.db, context, {
      eventType: 'provider_unlinked',
      userId: user.id,
      username: user.username,
      successful: false,
      details: { ...details, reason: 'the only way to sign in' },
    });
    throw new AppError('LAST_SIGN_IN_METHOD', LAST_SIGN_IN_METHOD_MESSAGE);
  }
  await deps.db.transaction(async (tx) => {
    await deleteIdentity(tx, target.id);
    await recordAudit(tx, context, {
      eventType: 'provider_unlinked',
      userId: user.id,
      username: user.username,
      details,
    });
  });
  return listSignInMethods(deps, user);
}
