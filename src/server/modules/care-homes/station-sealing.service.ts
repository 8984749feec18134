import { eq } from 'drizzle-orm';
import {
  STATION_SEALING_MESSAGES,
  type TStationSealedRecordingQuery,
  type TStationSealing,
  type TStationUnlocked,
} from '../../../shared/schemas/station-sealing';
import { HEADER_BYTES, isSealingError, parseHeader, sealedSize } from '../../../shared/sealing';
import type { AppDeps } from '../../deps';
import { careHomeStationSessions } from '../../db/schema';
import { AppError } from '../../errors';
import { verifyAgainstDummy, verifySecret } from '../../lib/crypto';
import { ATTEMPT_POLICIES, releaseAttempt, reserveAttempt } from '../audit/attempt-guard';
import { recordAccountEvent, recordAudit, type RequestContext } from '../audit/audit.service';
import { throttledMessage } from '../audit/throttle-messages';
import { findAccountKeysAndPasswordKdf } from '../encryption/encryption.repository';
import { isSameKdf } from '../encryption/encryption.service';
import { findCardsOfOwner } from '../recipients/recipient-keys.repository';
import { findUserById } from '../users/users.repository';
import { requireResidentOfSession, saveStationRecording } from './station-sessions.service';
import { fullName, staffAndStation, type StationSessionRow } from './stations.repository';

/**
 * A resident with enhanced encryption on, at a station. The server checks the proof of their own
 * password (counted with their sign-ins), hands over the account key's password wrap, which it
 * cannot open, and from then on takes only sealed takes for them in this session. It never sees
 * the password, the account key or a take's plaintext.
 */

type Deps = Pick<AppDeps, 'clock' | 'db' | 'log' | 'uploadPartBytes' | 'videoStore'>;

/** GET /api/station/sealing: whether the chosen resident's takes must be sealed here. */
export async function getStationSealing(
  deps: Pick<AppDeps, 'db'>,
  session: StationSessionRow,
): Promise<TStationSealing> {
  const resident = await requireResidentOfSession(deps, session);
  const found = await findAccountKeysAndPasswordKdf(deps.db, resident.id);
  if (!found) return { isSealed: false };
  return { isSealed: true, passwordKdf: found.passwordKdf ?? null };
}

/**
 * POST /api/station/sealing/unlock: the resident's password, proved by its sign-in half. A wrong
 * one is counted as a wrong sign-in of theirs (the station is never a familiar device), and each
 * try is on the resident's own log, naming the carer and the station.
 */
export async function unlockAtStation(
  deps: Pick<AppDeps, 'clock' | 'db'>,
  context: RequestContext & { deviceId: string },
  input: { session: StationSessionRow; passwordProof: string },
): Promise<TStationUnlocked> {
  const { session } = input;
  const resident = await requireResidentOfSession(deps, session);
  const found = await findAccountKeysAndPasswordKdf(deps.db, resident.id);
  if (!found) throw new AppError('CONFLICT', STATION_SEALING_MESSAGES.notSealed);
  const { staffName, station } = await staffAndStation(deps.db, session);
  const actor = `${staffName}, carer`;
  const now = deps.clock.now();

  const slot = await reserveAttempt(deps.db, {
    policy: ATTEMPT_POLICIES.login,
    account: `user:${resident.id}`,
    deviceId: context.deviceId,
    ip: context.ip,
    isFamiliarSource: false,
    now,
  });
  const refuse = (reason: string, message: string) =>
    recordAudit(deps.db, context, {
      eventType: 'login_failed',
      userId: resident.id,
      username: resident.username,
      successful: false,
      details: { reason, message, actor },
    });
  if (!slot.isAllowed) {
    await refuse(
      `throttled (${slot.reason}) at a recording station`,
      `Too many wrong passwords on ${station.name}, where ${staffName} (carer) was helping`,
    );
    throw new AppError('RATE_LIMITED', throttledMessage(slot, now));
  }
  // The hash is read for this check only; an account without a split password has no proof.
  const stored = (await findUserById(deps.db, resident.id))?.passwordHash ?? null;
  const isRight =
    stored !== null && found.passwordKdf
      ? await verifySecret(stored, input.passwordProof)
      : await verifyAgainstDummy(input.passwordProof);
  if (!isRight) {
    await refuse(
      'wrong password at a recording station',
      `Wrong password on ${station.name}, where ${staffName} (carer) was helping`,
    );
    throw new AppError('VALIDATION', STATION_SEALING_MESSAGES.wrongPassword, {
      passwordProof: STATION_SEALING_MESSAGES.wrongPassword,
    });
  }
  await releaseAttempt(deps.db, slot);
  // A reset since: the wrap is an earlier password's, which the one typed cannot open.
  if (!isSameKdf(found.keys.passwordKdf, found.passwordKdf)) {
    throw new AppError('CONFLICT', STATION_SEALING_MESSAGES.passwordWrapOld);
  }

  const cards = await findCardsOfOwner(deps.db, resident.id);
  await deps.db.transaction(async (tx) => {
    await tx
      .update(careHomeStationSessions)
      .set({ sealedUnlockedUserId: resident.id })
      .where(eq(careHomeStationSessions.idHash, session.idHash));
    await recordAccountEvent(tx, context, resident, {
      eventType: 'care_home_station_session',
      details: {
        message: `${fullName(resident)} typed their own password on ${station.name} to record sealed messages, with ${staffName} (carer) helping`,
        actor,
      },
    });
  });
  return {
    passwordWrap: found.keys.passwordWrap,
    passwordKdf: found.keys.passwordKdf,
    recipientKeys: cards.flatMap((card) =>
      card.ownerWrap ? [{ ...card, ownerWrap: card.ownerWrap }] : [],
    ),
  };
}

/**
 * POST /api/station/sealed-recordings: a take sealed in the station's browser, taken only in a
 * session where the resident's own password was proved. The server reads no more than its
 * header: the sealed format, this take's id, and a size that matches.
 */
export async function saveSealedAtStation(
  deps: Deps,
  context: RequestContext,
  input: {
    session: StationSessionRow;
    query: TStationSealedRecordingQuery & { recipientId: number; durationMs: number };
    bytes: Buffer;
  },
): Promise<{ saved: true; recipientName: string }> {
  const { session, query, bytes } = input;
  if (session.residentUserId === null || session.sealedUnlockedUserId !== session.residentUserId) {
    throw new AppError('FORBIDDEN', STATION_SEALING_MESSAGES.unlockFirst);
  }
  let plaintextBytes: number;
  try {
    // A copy of its own: a Node Buffer may be a view into a shared pool.
    const header = new Uint8Array(bytes.subarray(0, HEADER_BYTES));
    plaintextBytes = parseHeader(header, query.takeId).plaintextLength;
  } catch (error) {
    if (!isSealingError(error)) throw error;
    throw new AppError('VALIDATION', STATION_SEALING_MESSAGES.badSealedCopy);
  }
  if (plaintextBytes === 0 || sealedSize(plaintextBytes) !== bytes.length) {
    throw new AppError('VALIDATION', STATION_SEALING_MESSAGES.badSealedCopy);
  }
  return saveStationRecording(deps, context, {
    session,
    takeId: query.takeId,
    recipientId: query.recipientId,
    durationMs: query.durationMs,
    mimeType: query.mimeType,
    bytes,
    sealed: { keyWrap: query.keyWrap, recipientKeyWrap: query.recipientKeyWrap, plaintextBytes },
  });
}
