import type { FastifyBaseLogger } from 'fastify';
import type {
  TLegacyRequest,
  TLegacySettings,
  TLegacyState,
  TNextOfKinLegacy,
} from '../../../shared/schemas/legacy';
import type { TConfig } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import type { UrlSigner } from '../../lib/url-signer';
import { recordAccountEvent, type JobContext, type RequestContext } from '../audit/audit.service';
import type { MailQueue } from '../mail/mail.service';
import { findUserById, type SessionUser, type UserRow } from '../users/users.repository';
import { findLegacyHistory, findWaitingRelease, updateLegacySettings } from './legacy.repository';
import { describeOpened } from './release-end.service';
import { findLastEndedAt } from './release-end.repository';
import { findAskers, findAskHold } from './release-requests.service';

/** What the legacy work needs of the app. */
export interface LegacyDeps {
  db: Db;
  mail: MailQueue;
  config: Pick<TConfig, 'APP_URL'>;
  urlSigner: UrlSigner;
  log: FastifyBaseLogger;
  clock: { now(): Date };
}

/** The timed legacy work, as its audit rows name it. */
export const LEGACY_CHECK: JobContext = { job: 'scheduled legacy check' };

const LEGACY_EVENT_TYPES = [
  'legacy_release_requested',
  'legacy_release_reminder',
  'legacy_release_cancelled',
  'legacy_released',
  'legacy_message_opened',
  'legacy_release_ended',
] as const;

function settingsOf(owner: UserRow): TLegacySettings {
  return {
    waitingDays: owner.legacyWaitingDays,
    inactivityMonths: owner.inactivityMonths as TLegacySettings['inactivityMonths'],
    showWaitingMessages: owner.showWaitingMessages,
  };
}

/** The waiting release as the owner's screens show it, or null. */
export async function findPendingRelease(
  db: DbOrTx,
  ownerId: number,
): Promise<TLegacyRequest | null> {
  const found = await findWaitingRelease(db, ownerId);
  if (!found) return null;
  return {
    requestedAt: found.release.requestedAt.toISOString(),
    releasesAt: found.release.releasesAt.toISOString(),
    requestedBy: found.requestedBy,
  };
}

export async function getLegacyState(deps: LegacyDeps, ownerId: number): Promise<TLegacyState> {
  const [owner, request] = await Promise.all([
    findUserById(deps.db, ownerId),
    findPendingRelease(deps.db, ownerId),
  ]);
  if (!owner) throw new AppError('NOT_FOUND', 'Account not found.');
  const [opened, endedAt, askers] = await Promise.all([
    describeOpened(deps.db, owner),
    owner.legacyReleasedAt ? undefined : findLastEndedAt(deps.db, owner.id),
    findAskers(deps.db, owner, deps.clock.now()),
  ]);
  return {
    settings: settingsOf(owner),
    request,
    releasedAt: owner.legacyReleasedAt?.toISOString() ?? null,
    opened,
    endedAt: endedAt?.toISOString() ?? null,
    askers,
  };
}

export async function saveLegacySettings(
  deps: LegacyDeps,
  context: RequestContext,
  input: { owner: SessionUser; settings: TLegacySettings; timeZone: string | null },
): Promise<TLegacyState> {
  const { owner, settings } = input;
  await deps.db.transaction(async (tx) => {
    await updateLegacySettings(tx, { ownerId: owner.id, settings, timeZone: input.timeZone });
    const inactivity = settings.inactivityMonths
      ? `inactivity check after ${settings.inactivityMonths} months`
      : 'inactivity check off';
    await recordAccountEvent(tx, context, owner, {
      eventType: 'legacy_settings_changed',
      details: {
        message: `Legacy release settings saved: ${settings.waitingDays} day${settings.waitingDays === 1 ? '' : 's'} to wait, ${inactivity}`,
      },
    });
  });
  return getLegacyState(deps, owner.id);
}

/** The next of kin's view: where a release stands and, once released, the history. */
export async function nextOfKinLegacy(
  deps: LegacyDeps,
  owner: Pick<UserRow, 'id' | 'legacyReleasedAt' | 'legacyWaitingDays'>,
  nextOfKin: Pick<UserRow, 'id'>,
): Promise<TNextOfKinLegacy> {
  const [pending, asker] = await Promise.all([
    findPendingRelease(deps.db, owner.id),
    findUserById(deps.db, nextOfKin.id),
  ]);
  const hold =
    pending || owner.legacyReleasedAt || !asker
      ? null
      : await findAskHold(deps.db, owner, asker, deps.clock.now());
  const releasedAt = owner.legacyReleasedAt;
  const rows = releasedAt
    ? await findLegacyHistory(deps.db, { ownerId: owner.id, eventTypes: LEGACY_EVENT_TYPES })
    : [];
  return {
    status: releasedAt ? 'released' : pending ? 'waiting' : 'none',
    requestedAt: pending?.requestedAt ?? null,
    releasesAt: pending?.releasesAt ?? null,
    releasedAt: releasedAt?.toISOString() ?? null,
    waitingDays: owner.legacyWaitingDays,
    history: rows.map((row) => ({
      at: row.at.toISOString(),
      text: String((row.details as Record<string, unknown> | null)?.message ?? ''),
    })),
    ...(hold ? { hold } : {}),
  };
}
