import { normalizeCode } from '../../../shared/domain/codes';
import { MESSAGES } from '../../../shared/domain/errors';
import type { TExternalLinkCodeResponse } from '../../../shared/schemas/external-sign-in';
import { AppError } from '../../errors';
import { verifySecret } from '../../lib/crypto';
import {
  ATTEMPT_POLICIES,
  isFamiliarDevice,
  releaseAttempt,
  reserveAttempt,
  type AttemptPolicy,
} from '../audit/attempt-guard';
import { recordAccountEvent, type RequestContext } from '../audit/audit.service';
import { KEY_LIMITS, type KeyLimit } from '../audit/throttle';
import { throttledMessage } from '../audit/throttle-messages';
import { assertMaySignInHere } from '../auth/auth.service';
import {
  addOneTimeCode,
  countWrongTry,
  findLiveOneTimeCodes,
} from '../auth/one-time-codes.repository';
import { ONE_TIME_CODE_MAX_TRIES } from '../auth/passwords.service';
import { emailDeviceCode } from '../devices/device-move.service';
import type { DeviceRow } from '../devices/devices.repository';
import type { UserRow } from '../users/users.repository';
import { providerLinkCodeMail } from './external-sign-in.mails';
import { advanceFlow } from './external-sign-in.repository';
import {
  auditDetailsFor,
  expired,
  findReturnedFlow,
  FLOW_LIFETIME_MS,
  resolveStep,
  type Deps,
} from './external-sign-in.service';
import type { ProviderSettings } from './providers';

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
  const expiresAt = new Date(deps.clock.now().getTime() + FLOW_LIFETIME_MS);
  if (!(await advanceFlow(deps.db, flow.idHash, 'returned', { expiresAt })))
    throw expired(settings);
  return { ...sent, expiresAt };
}

/** The emailed code, throttled like a reset code; each wrong one also counts against the codes. */
export async function checkLinkCode(
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
    recordAccountEvent(deps.db, context, user, {
      eventType: 'provider_linked',
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
