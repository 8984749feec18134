import {
  TRANSFER_MESSAGES,
  TRANSFER_OFFER_MINUTES,
  TRANSFER_RESUME_HOURS,
  type TClaimTransferBody,
  type TCreateTransferBody,
  type TCreateTransferWithPasswordBody,
  type TFinishTransferBody,
  type TTransferClaimed,
  type TTransferCreated,
  type TTransferCreatedWithPassword,
  type TTransferFailureBody,
  type TTransferSignal,
  type TTransferSignalBody,
} from '../../../shared/schemas/transfers';
import type { TAuditEventType } from '../../../shared/domain/enums';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors';
import { randomToken, sha256 } from '../../lib/crypto';
import type { DbOrTx } from '../../db/client';
import { Permission, requireAccess } from '../access/access';
import type { Actor } from '../access/actor';
import { recordAccountEvent, recordAudit, type RequestContext } from '../audit/audit.service';
import { checkCredentials } from '../auth/auth.service';
import { findPrimaryDeviceOfUser, type DeviceRow } from '../devices/devices.repository';
import { findUserById } from '../users/users.repository';
import {
  answerAttempt,
  claimTransfer as claimTransferRow,
  findTransferById,
  findTransferByLookupHash,
  finishTransfer as finishTransferRow,
  insertTransfer,
  moveIndexRowsToDevice,
  startAttempt,
  type TransferRow,
} from './transfers.repository';

/** The part of the app's dependencies this service uses. */
type Deps = Pick<AppDeps, 'clock' | 'config' | 'db'>;

/** Who is asking: the old device by its transfer token, or the new device by its session. */
export type TransferSide = { kind: 'sender'; token: string } | { kind: 'receiver'; actor: Actor };

const codeNotValid = () => new AppError('NOT_FOUND', TRANSFER_MESSAGES.codeNotValid);
const ended = () => new AppError('NOT_FOUND', TRANSFER_MESSAGES.ended);

async function audit(
  db: DbOrTx,
  context: RequestContext,
  row: TransferRow,
  event: { eventType: TAuditEventType; successful?: boolean; details: Record<string, unknown> },
): Promise<void> {
  // The old device may have no session left, so the account is named from the transfer.
  const owner = await findUserById(db, row.userId);
  await recordAudit(db, context, {
    ...event,
    userId: row.userId,
    username: owner?.username ?? null,
    details: { ...event.details, transferId: row.id },
  });
}

/** An offer of this device's messages for a few minutes, with a token that outlives any session. */
async function offer(
  deps: Deps,
  db: DbOrTx,
  from: { userId: number; deviceId: string },
  lookup: string,
): Promise<TTransferCreated> {
  const token = randomToken();
  const now = deps.clock.now();
  const row = await insertTransfer(db, {
    userId: from.userId,
    senderDeviceId: from.deviceId,
    senderTokenHash: sha256(token),
    lookupHash: sha256(lookup),
    expiresAt: new Date(now.getTime() + TRANSFER_OFFER_MINUTES * 60_000),
  });
  return {
    transferId: row.id,
    senderToken: token,
    expiresAt: row.expiresAt.toISOString(),
    iceServers: deps.config.WEBRTC_ICE_SERVERS,
  };
}

/** The old device offers its messages while it still holds the account. */
export async function createTransfer(
  deps: Deps,
  actor: Actor,
  body: TCreateTransferBody,
): Promise<TTransferCreated> {
  requireAccess(actor, Permission.TransferMessages);
  return offer(deps, deps.db, { userId: actor.user.id, deviceId: actor.deviceId }, body.lookup);
}

/**
 * The old device after the account moved on without its messages: signed out, it offers them
 * with the account's password (checked and throttled as a sign-in is). Whatever it sends can reach
 * only the account's own primary device, the one device that may take the offer.
 */
export async function createTransferWithPassword(
  deps: Deps,
  context: RequestContext,
  device: DeviceRow,
  body: TCreateTransferWithPasswordBody,
): Promise<TTransferCreatedWithPassword> {
  const user = await checkCredentials(deps.db, context, {
    device,
    username: body.username,
    password: body.password ?? '',
    passwordProof: body.passwordProof,
    now: deps.clock.now(),
  });
  if (!user.isPrimary) throw new AppError('FORBIDDEN', TRANSFER_MESSAGES.ownerOnly);
  const primary = await findPrimaryDeviceOfUser(deps.db, user.id);
  if (primary?.id === device.id) throw new AppError('VALIDATION', TRANSFER_MESSAGES.signInHere);
  const created = await deps.db.transaction(async (tx) => {
    const made = await offer(deps, tx, { userId: user.id, deviceId: device.id }, body.lookup);
    // The password was used on a device that no longer holds the account: on the owner's log.
    await recordAccountEvent(tx, context, user, {
      eventType: 'transfer_offered_signed_out',
      details: {
        message: 'Messages offered from a signed-out old device',
        transferId: made.transferId,
      },
    });
    return made;
  });
  return { ...created, userId: user.id };
}

/**
 * The new device, signed in to the same account, takes the offer: once, by one device. The same
 * device may take it again to resume; any other answer names nothing.
 */
export async function claimTransfer(
  deps: Deps,
  context: RequestContext,
  actor: Actor,
  body: TClaimTransferBody,
): Promise<TTransferClaimed> {
  requireAccess(actor, Permission.TransferMessages);
  const now = deps.clock.now();
  const row = await findTransferByLookupHash(deps.db, sha256(body.lookup));
  // The device that received everything, opening the page again, is told so, not refused.
  if (row?.finishedAt && row.userId === actor.user.id && row.receiverDeviceId === actor.deviceId) {
    return { transferId: row.id, iceServers: [], isFinished: true };
  }
  if (!row || row.userId !== actor.user.id || row.finishedAt || row.expiresAt <= now) {
    throw codeNotValid();
  }
  if (row.senderDeviceId === actor.deviceId) {
    throw new AppError('VALIDATION', TRANSFER_MESSAGES.sameDevice);
  }
  const claimed = { transferId: row.id, iceServers: deps.config.WEBRTC_ICE_SERVERS };
  if (row.receiverDeviceId === actor.deviceId) return claimed;
  if (row.receiverDeviceId !== null) throw codeNotValid();

  await deps.db.transaction(async (tx) => {
    const resumeUntil = new Date(now.getTime() + TRANSFER_RESUME_HOURS * 3600_000);
    const taken = await claimTransferRow(tx, {
      id: row.id,
      receiverDeviceId: actor.deviceId,
      now,
      resumeUntil,
    });
    if (!taken) throw codeNotValid();
    await audit(tx, context, taken, {
      eventType: 'transfer_started',
      details: { message: 'Messages started moving to a new device' },
    });
  });
  return claimed;
}

/** The transfer as this side may see it, or a refusal that names nothing. */
async function findForSide(deps: Deps, side: TransferSide, id: string): Promise<TransferRow> {
  const row = await findTransferById(deps.db, id);
  if (!row) throw ended();
  if (side.kind === 'sender') {
    if (sha256(side.token) !== row.senderTokenHash) throw ended();
  } else {
    requireAccess(side.actor, Permission.TransferMessages);
    const isReceiver =
      row.userId === side.actor.user.id && row.receiverDeviceId === side.actor.deviceId;
    if (!isReceiver) throw ended();
  }
  if (!row.finishedAt && row.expiresAt <= deps.clock.now()) throw ended();
  return row;
}

function toSignal(row: TransferRow, side: TransferSide): TTransferSignal {
  const state = row.finishedAt ? 'finished' : row.receiverDeviceId ? 'taken' : 'waiting';
  const description = side.kind === 'sender' ? row.offerDescription : row.answerDescription;
  return { state, attempt: row.attempt, description };
}

export async function readSignal(
  deps: Deps,
  side: TransferSide,
  id: string,
): Promise<TTransferSignal> {
  return toSignal(await findForSide(deps, side, id), side);
}

/** The new device's offer starts an attempt; the old device answers the newest one. */
export async function writeSignal(
  deps: Deps,
  side: TransferSide,
  id: string,
  body: TTransferSignalBody,
): Promise<TTransferSignal> {
  const row = await findForSide(deps, side, id);
  if (row.finishedAt || !row.receiverDeviceId) throw ended();
  if (side.kind === 'receiver') {
    const started = await startAttempt(deps.db, row.id, body.description);
    return toSignal(started ?? row, side);
  }
  if (
    body.attempt === undefined ||
    !(await answerAttempt(deps.db, { id, ...body, attempt: body.attempt }))
  ) {
    throw new AppError('CONFLICT', 'The new device started again. Please wait a moment.');
  }
  return toSignal({ ...row, answerDescription: body.description }, side);
}

/** One message arrived and was checked: its index row names the new device from now on. */
export async function noteArrival(
  deps: Deps,
  actor: Actor,
  input: { id: string; videoId: string },
): Promise<{ movedIndexRows: number }> {
  const row = await findForSide(deps, { kind: 'receiver', actor }, input.id);
  if (row.finishedAt) throw ended();
  const movedIndexRows = await moveIndexRowsToDevice(deps.db, {
    creatorId: row.userId,
    videoIds: [input.videoId],
    deviceId: actor.deviceId,
    now: deps.clock.now(),
  });
  return { movedIndexRows };
}

/**
 * Every message arrived and was checked on the new device: the index rows now name it, the
 * handshake is forgotten and the owner's log says so. Saying it twice changes nothing.
 */
export async function finishTransfer(
  deps: Deps,
  context: RequestContext,
  actor: Actor,
  input: { id: string; body: TFinishTransferBody },
): Promise<{ movedIndexRows: number }> {
  const row = await findForSide(deps, { kind: 'receiver', actor }, input.id);
  if (row.finishedAt) return { movedIndexRows: 0 };
  return deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    if (!(await finishTransferRow(tx, row.id, now))) return { movedIndexRows: 0 };
    const movedIndexRows = await moveIndexRowsToDevice(tx, {
      creatorId: row.userId,
      videoIds: input.body.videoIds,
      deviceId: actor.deviceId,
      now,
    });
    const count = input.body.videoIds.length;
    await audit(tx, context, row, {
      eventType: 'transfer_finished',
      details: { message: `${count} message${count === 1 ? '' : 's'} moved to a new device` },
    });
    return { movedIndexRows };
  });
}

const FAILURE_TEXT = {
  no_connection: 'The two devices could not reach each other',
  checksum: 'A message arrived damaged and was asked for again',
  interrupted: 'The connection was lost part way',
} as const;

/** Either side says why it stopped, for the owner's log; the transfer may still resume. */
export async function reportFailure(
  deps: Deps,
  context: RequestContext,
  side: TransferSide,
  input: { id: string; body: TTransferFailureBody },
): Promise<void> {
  const row = await findForSide(deps, side, input.id);
  if (row.finishedAt) return;
  await audit(deps.db, context, row, {
    eventType: 'transfer_failed',
    successful: false,
    details: {
      message: FAILURE_TEXT[input.body.reason],
      reason: input.body.reason,
      reportedBy: side.kind === 'sender' ? 'old device' : 'new device',
    },
  });
}
