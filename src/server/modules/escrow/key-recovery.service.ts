import {
  ESCROW_MESSAGES,
  type TKeyRecovery,
  type TKeyRecoveryState,
} from '../../../shared/schemas/escrow';
import { brandForOwner } from '../care-homes/care-home-brand';
import type { AppDeps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import { sha256 } from '../../lib/crypto';
import type { Actor } from '../access/actor';
import { recordAccountEvent, recordAudit, type RequestContext } from '../audit/audit.service';
import { isEscrowReleased, isRecoveryOpen } from '../legacy/release-rule';
import { fullName } from '../mail/mail-layout';
import { findUserById, type UserRow } from '../users/users.repository';
import { checkCard, type Pair } from './escrow.service';
import {
  endRecovery,
  findLiveRecovery,
  insertRecovery,
  type KeyRecoveryRow,
} from './key-recovery.repository';
import {
  recoveryCancelledMail,
  recoveryStartedNextOfKinMail,
  recoveryStartedOwnerMail,
} from './key-recovery.mails';

/**
 * Key recovery: an owner who lost their password, every device and the recovery sheet (and so,
 * after the next of kin's break-glass, is signed in with a password that opens nothing sealed)
 * asks for the next of kin's emergency card to open their messages. It opens after the owner's
 * waiting period, so a relative who took the account over cannot read them quietly: the owner is
 * emailed at once with a one-click link to stop it.
 */

type Deps = Pick<AppDeps, 'clock' | 'config' | 'db' | 'mail' | 'urlSigner'>;

const DAY_MS = 24 * 3600_000;

function toRecovery(row: KeyRecoveryRow | undefined, now: Date): TKeyRecovery | null {
  if (!row) return null;
  return {
    status: isRecoveryOpen(row, now) ? 'open' : 'waiting',
    opensAt: row.opensAt.toISOString(),
  };
}

/** The token of the cancel link: signed, so the email can be made again without keeping it. */
function cancelToken(deps: Pick<Deps, 'urlSigner'>, ownerId: number, requestedAt: Date): string {
  return deps.urlSigner.sign(['key-recovery-cancel', String(ownerId), requestedAt.toISOString()]);
}

/** GET /api/escrow/recovery: the owner's live key recovery, and how long one waits. */
export async function getKeyRecovery(
  deps: Pick<Deps, 'clock' | 'db'>,
  owner: Pick<UserRow, 'id' | 'legacyWaitingDays'>,
): Promise<TKeyRecoveryState> {
  const row = await findLiveRecovery(deps.db, owner.id);
  return { recovery: toRecovery(row, deps.clock.now()), waitingDays: owner.legacyWaitingDays };
}

/** Both logs say who asked and when it opens; the owner gets the link to stop it. */
async function announceStarted(
  deps: Deps,
  tx: DbOrTx,
  context: RequestContext,
  input: { pair: Pair; row: KeyRecoveryRow; token: string },
): Promise<void> {
  const { pair, row } = input;
  const { owner, nextOfKin } = pair;
  const cancelUrl = `${deps.config.APP_URL}/key-recovery/cancel#${input.token}`;
  await deps.mail.enqueue(
    tx,
    recoveryStartedOwnerMail({ owner, nextOfKin, opensAt: row.opensAt, cancelUrl }),
  );
  await deps.mail.enqueue(
    tx,
    recoveryStartedNextOfKinMail({
      owner,
      nextOfKin,
      opensAt: row.opensAt,
      brand: await brandForOwner(tx, owner.id, deps.config.APP_URL),
    }),
  );
  const details = {
    message: `A key recovery with ${fullName(nextOfKin)}’s emergency card was asked for from your account; it opens on ${row.opensAt.toISOString().slice(0, 10)} unless stopped`,
    actor: `${owner.firstName}’s account, with ${fullName(nextOfKin)}’s emergency card`,
  };
  await recordAccountEvent(tx, context, owner, { eventType: 'key_recovery_requested', details });
  await recordAudit(tx, context, {
    eventType: 'key_recovery_requested',
    userId: nextOfKin.id,
    username: nextOfKin.email,
    details,
  });
}

/**
 * POST /api/escrow/recovery: from the owner's own account, with the card's proof (checked and
 * counted as every use of the card is). Asking again while one is live answers that one, so a
 * double press starts one wait and sends one set of emails.
 */
export async function startKeyRecovery(
  deps: Deps,
  context: RequestContext & { deviceId: string },
  input: { actor: Actor; nextOfKinEmail: string; codeProof: string },
): Promise<TKeyRecoveryState> {
  if (input.actor.user.category === 'next_of_kin') {
    throw new AppError('FORBIDDEN', ESCROW_MESSAGES.recoveryOwnerOnly);
  }
  const { pair } = await checkCard(deps, context, input);
  const { owner } = pair;
  const now = deps.clock.now();
  if (isEscrowReleased(owner)) return { recovery: null, waitingDays: owner.legacyWaitingDays };
  const token = cancelToken(deps, owner.id, now);
  await deps.db.transaction(async (tx) => {
    const row = await insertRecovery(tx, {
      ownerId: owner.id,
      nextOfKinId: pair.nextOfKin.id,
      requestedAt: now,
      opensAt: new Date(now.getTime() + owner.legacyWaitingDays * DAY_MS),
      cancelTokenHash: sha256(token),
    });
    if (row) await announceStarted(deps, tx, context, { pair, row, token });
  });
  deps.mail.kick();
  return getKeyRecovery(deps, owner);
}

/** The next of kin hears it was stopped; the owner's log says how. */
async function announceCancelled(
  deps: Deps,
  tx: DbOrTx,
  context: RequestContext,
  row: KeyRecoveryRow,
  how: string,
): Promise<UserRow | undefined> {
  const [owner, nextOfKin] = await Promise.all([
    findUserById(tx, row.ownerId),
    row.nextOfKinId === null ? undefined : findUserById(tx, row.nextOfKinId),
  ]);
  if (!owner) return undefined;
  if (nextOfKin) {
    const brand = await brandForOwner(tx, owner.id, deps.config.APP_URL);
    await deps.mail.enqueue(tx, recoveryCancelledMail({ owner, nextOfKin, brand }));
  }
  await recordAccountEvent(tx, context, owner, {
    eventType: 'key_recovery_cancelled',
    details: { message: `The key recovery was stopped ${how}` },
  });
  return owner;
}

/** POST /api/escrow/recovery/cancel: from the owner's signed-in account. */
export async function cancelKeyRecoverySignedIn(
  deps: Deps,
  context: RequestContext,
  owner: Pick<UserRow, 'id' | 'legacyWaitingDays'>,
): Promise<TKeyRecoveryState> {
  const now = deps.clock.now();
  const ended = await deps.db.transaction(async (tx) => {
    const row = await endRecovery(tx, { ownerId: owner.id, status: 'cancelled', now });
    if (row) await announceCancelled(deps, tx, context, row, 'from the account, signed in');
    return row;
  });
  if (!ended) throw new AppError('NOT_FOUND', ESCROW_MESSAGES.noRecoveryWaiting);
  deps.mail.kick();
  return getKeyRecovery(deps, owner);
}

/** POST /api/escrow/recovery/cancel-link: the link in the owner's email, single use, no password. */
export async function cancelKeyRecoveryByLink(
  deps: Deps,
  context: RequestContext,
  token: string,
): Promise<{ ownerFirstName: string }> {
  const now = deps.clock.now();
  const owner = await deps.db.transaction(async (tx) => {
    const row = await endRecovery(tx, { cancelTokenHash: sha256(token), status: 'cancelled', now });
    return row
      ? announceCancelled(deps, tx, context, row, 'with the link in the email')
      : undefined;
  });
  if (!owner) throw new AppError('NOT_FOUND', ESCROW_MESSAGES.noRecoveryWaiting);
  deps.mail.kick();
  return { ownerFirstName: owner.firstName };
}
