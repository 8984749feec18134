import { randomInt } from 'node:crypto';
import { MESSAGES } from '../../../shared/domain/errors';
import type { TExternalFinishBody } from '../../../shared/schemas/external-sign-in';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import { randomToken, sha256 } from '../../lib/crypto';
import { recordAccountEvent, type RequestContext } from '../audit/audit.service';
import {
  assertMaySignInHere,
  checkCredentials,
  createPrimaryAccount,
  openSession,
  type SignedIn,
} from '../auth/auth.service';
import { retireOneTimeCodes } from '../auth/one-time-codes.repository';
import type { DeviceRow } from '../devices/devices.repository';
import { findUserByUsername, type UserRow } from '../users/users.repository';
import { insertIdentity, markIdentityUsed, type IdentityRow } from './external-sign-in.repository';
import {
  auditDetailsFor,
  endFlow,
  findReturnedFlow,
  resolveStep,
  type Deps,
  type ReturnedFlow,
} from './external-sign-in.service';
import { checkLinkCode } from './link-code.service';

/** How the session opens, whichever way the person came: the device and the provider's words. */
interface SessionStart {
  device: DeviceRow;
  previousSessionIdHash: string | null;
  method: 'external_provider';
  auditDetails: ReturnType<typeof auditDetailsFor>;
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
  const returned = await findReturnedFlow(deps, input);
  const resolved = await resolveStep(deps.db, returned.settings.id, returned.identity);
  const session: SessionStart = {
    device: input.device,
    previousSessionIdHash: input.previousSessionIdHash,
    method: 'external_provider',
    auditDetails: auditDetailsFor(returned.settings),
  };
  if (resolved.step === 'sign_in') {
    const { user, identityRow } = resolved;
    return signInWithIdentity(deps, context, { returned, session, user, identityRow });
  }
  if (resolved.step === 'link') {
    return linkAndSignIn(deps, context, {
      returned,
      session,
      user: resolved.user,
      body: input.body,
    });
  }
  return createAccountWithIdentity(deps, context, { returned, session, body: input.body });
}

/** A linked identity signs in as its account's password would. */
async function signInWithIdentity(
  deps: Deps,
  context: RequestContext,
  input: { returned: ReturnedFlow; session: SessionStart; user: UserRow; identityRow: IdentityRow },
): Promise<SignedIn> {
  const { returned, session, user } = input;
  const { device, auditDetails } = session;
  await assertMaySignInHere(deps.db, context, { user, device, auditDetails });
  return deps.db.transaction(async (tx) => {
    await endFlow(tx, returned.flow, returned.settings);
    await markIdentityUsed(tx, input.identityRow.id, deps.clock.now());
    return openSession(tx, context, { ...session, user, now: deps.clock.now() });
  });
}

/**
 * Never linked on the email alone: the account's own password, throttled and audited as any
 * sign-in, or a code sent to the account's email.
 */
async function linkAndSignIn(
  deps: Deps,
  context: RequestContext,
  input: {
    returned: ReturnedFlow;
    session: SessionStart;
    user: UserRow;
    body: TExternalFinishBody;
  },
): Promise<SignedIn> {
  const { returned, session, body } = input;
  const { flow, settings, identity } = returned;
  const { device, auditDetails } = session;
  if (!body.password && !body.passwordProof && !body.code) {
    throw new AppError('VALIDATION', 'Password is required', {
      password: 'Password is required',
    });
  }
  const isByCode = Boolean(body.code);
  let user = input.user;
  if (body.code) {
    // Codes go only to devices that may open the account, so no other device has one to try.
    await assertMaySignInHere(deps.db, context, { user, device, auditDetails });
    await checkLinkCode(deps, context, { user, device, code: body.code, settings });
  } else {
    user = await checkCredentials(deps.db, context, {
      device,
      username: input.user.username,
      password: body.password ?? '',
      passwordProof: body.passwordProof,
      now: deps.clock.now(),
    });
    await assertMaySignInHere(deps.db, context, { user, device, auditDetails });
  }
  return deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    await endFlow(tx, flow, settings);
    if (isByCode) await retireOneTimeCodes(tx, user.id, 'provider_link', now);
    await insertIdentity(tx, {
      userId: user.id,
      provider: settings.id,
      subject: identity.subject,
      email: identity.email,
      lastSignInAt: now,
    });
    await recordAccountEvent(tx, context, user, {
      eventType: 'provider_linked',
      details: isByCode
        ? { ...auditDetails, message: 'proven with a code sent by email' }
        : auditDetails,
    });
    return openSession(tx, context, { ...session, user, now });
  });
}

/** Someone new: the account is made once the terms are accepted, named from the email. */
async function createAccountWithIdentity(
  deps: Deps,
  context: RequestContext,
  input: { returned: ReturnedFlow; session: SessionStart; body: TExternalFinishBody },
): Promise<SignedIn> {
  const { returned, session, body } = input;
  const { flow, settings, identity } = returned;
  if (!body.tosAccepted || !body.tosAcceptedAt) {
    throw new AppError('VALIDATION', MESSAGES.tosRequired, { tosAccepted: MESSAGES.tosRequired });
  }
  const email = identity.email!;
  const localPart = email.split('@')[0] ?? '';
  const now = deps.clock.now();
  return createPrimaryAccount(deps.db, deps.config, context, {
    device: session.device,
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
    auditDetails: session.auditDetails,
    afterInsert: async (tx, user) => {
      await endFlow(tx, flow, settings);
      await insertIdentity(tx, {
        userId: user.id,
        provider: settings.id,
        subject: identity.subject,
        email,
        lastSignInAt: now,
      });
    },
    now,
  });
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
