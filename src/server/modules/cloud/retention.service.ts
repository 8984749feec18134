import { hasCloudSync } from '../../../shared/domain/plan-limits';
import { CLOUD_RETENTION_DAYS } from '../../../shared/domain/plans';
import type { AppDeps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import { cloudKeptMail } from './cloud.mails';
import type { UserRow, SessionUser } from '../users/users.repository';
import { findUserById } from '../users/users.repository';
import {
  claimDueDowngrade,
  completeDowngradeCleanup,
  countSyncedVideos,
  insertDowngrade,
  returnSyncedToLocal,
} from './retention.repository';

/** The part of the app's dependencies this service uses. */
type Deps = Pick<AppDeps, 'config' | 'db' | 'log' | 'mail' | 'videoStore'>;

const DAY_MS = 24 * 3600_000;

type Entitlement = Pick<UserRow, 'subscriptionTier' | 'isAdmin' | 'isVIP' | 'role'>;

/**
 * Called in the transaction that changes a user's plan, VIP flag or admin rights: losing cloud
 * sync with messages in the cloud writes the tier downgrade record and tells the user how
 * long the copies are kept. Nothing on their device is touched, now or later.
 */
export async function noteCloudEntitlementChange(
  deps: Deps,
  tx: DbOrTx,
  input: { user: SessionUser; before: Entitlement; after: Entitlement; now: Date },
): Promise<void> {
  const { user, before, after, now } = input;
  if (!hasCloudSync(before) || hasCloudSync(after)) return;
  const synced = await countSyncedVideos(tx, user.id);
  const expiry = new Date(now.getTime() + CLOUD_RETENTION_DAYS * DAY_MS);
  await insertDowngrade(tx, {
    userId: user.id,
    previousTier: before.subscriptionTier,
    newTier: after.subscriptionTier,
    downgradeDate: now,
    cloudRetentionDays: CLOUD_RETENTION_DAYS,
    cloudRetentionExpiry: expiry,
    metadata: { syncedMessages: synced },
  });
  if (synced > 0) {
    await deps.mail.enqueue(
      tx,
      cloudKeptMail({ owner: user, until: expiry, count: synced, appUrl: deps.config.APP_URL }),
    );
  }
}

/**
 * The daily clean-up (one job across every app server: due records are claimed with SKIP LOCKED,
 * and a missed day is caught up because the query asks what is due, not what is new). For each
 * downgrade past its retention: if cloud sync came back, close it; else delete the account's
 * cloud copies, return their index rows to 'local_only' without titles, and record how many.
 */
export async function runCloudRetention(deps: Deps, now: Date): Promise<number> {
  let handled = 0;
  for (;;) {
    const objectKeys = await deps.db.transaction((tx) => closeNextDowngrade(tx, now));
    if (!objectKeys) return handled;
    handled += 1;
    const results = await Promise.allSettled(
      objectKeys.map((key) => deps.videoStore.deleteObject(key)),
    );
    const failed = results.filter((result) => result.status === 'rejected').length;
    if (failed > 0) deps.log.warn({ failed }, 'cloud retention: some copies could not be deleted');
  }
}

/** Closes the next downgrade that is due; answers the cloud objects to delete, or undefined. */
async function closeNextDowngrade(tx: DbOrTx, now: Date): Promise<string[] | undefined> {
  const due = await claimDueDowngrade(tx, now);
  if (!due) return undefined;
  const user = await findUserById(tx, due.user_id);
  let objectKeys: string[] = [];
  let outcome = 'account deleted';
  if (user && hasCloudSync(user)) {
    outcome = 'cloud sync restored';
  } else if (user) {
    outcome = 'cloud copies deleted';
    objectKeys = await returnSyncedToLocal(tx, { userId: user.id, now });
  }
  await completeDowngradeCleanup(tx, {
    id: due.id,
    now,
    videosDeleted: objectKeys.length,
    metadata: { ...due.metadata, outcome },
  });
  return objectKeys;
}
