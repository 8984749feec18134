import { and, eq, sql } from 'drizzle-orm';
import { CLOUD_RETENTION_DAYS, hasCloudSync } from '../../../shared/domain/plans';
import type { AppDeps } from '../../deps';
import type { DbOrTx } from '../../db/client';
import { tierDowngrades, videos } from '../../db/schema';
import { cloudKeptMail } from './cloud.mails';
import type { UserRow, SessionUser } from '../users/users.repository';
import { findUserById } from '../users/users.repository';

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
  const [synced] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(videos)
    .where(and(eq(videos.creatorId, user.id), eq(videos.syncStatus, 'synced')));
  const expiry = new Date(now.getTime() + CLOUD_RETENTION_DAYS * DAY_MS);
  await tx.insert(tierDowngrades).values({
    userId: user.id,
    previousTier: before.subscriptionTier,
    newTier: after.subscriptionTier,
    downgradeDate: now,
    cloudRetentionDays: CLOUD_RETENTION_DAYS,
    cloudRetentionExpiry: expiry,
    metadata: { syncedMessages: synced?.count ?? 0 },
  });
  if ((synced?.count ?? 0) > 0) {
    await deps.mail.enqueue(
      tx,
      cloudKeptMail({
        owner: user,
        until: expiry,
        count: synced?.count ?? 0,
        appUrl: deps.config.APP_URL,
      }),
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
    const claimed = await deps.db.transaction(async (tx) => {
      // Both drivers (PGlite and node-postgres) answer raw SQL with `{ rows }`.
      const result = (await tx.execute(sql`
        select id, user_id, metadata from tier_downgrades
         where not cloud_cleanup_completed and cloud_retention_expiry <= ${now.toISOString()}
         order by cloud_retention_expiry
         limit 1
         for update skip locked`)) as unknown as {
        rows: Array<{ id: number; user_id: number; metadata: Record<string, unknown> }>;
      };
      const due = result.rows[0];
      if (!due) return undefined;

      const user = await findUserById(tx, due.user_id);
      let objectKeys: string[] = [];
      let outcome = 'account deleted';
      if (user && hasCloudSync(user)) {
        outcome = 'cloud sync restored';
      } else if (user) {
        outcome = 'cloud copies deleted';
        const synced = await tx
          .select({ id: videos.id, key: videos.cloudPath })
          .from(videos)
          .where(and(eq(videos.creatorId, user.id), eq(videos.syncStatus, 'synced')));
        objectKeys = synced.flatMap((row) => (row.key ? [row.key] : []));
        if (synced.length > 0) {
          await tx
            .update(videos)
            .set({
              storageType: 'local',
              syncStatus: 'local_only',
              cloudPath: null,
              // Principle 1: without a cloud copy the server keeps no title.
              title: null,
              promptId: null,
              updatedAt: now,
            })
            .where(and(eq(videos.creatorId, user.id), eq(videos.syncStatus, 'synced')));
        }
      }
      await tx
        .update(tierDowngrades)
        .set({
          cloudCleanupCompleted: true,
          cleanedUpAt: now,
          videosDeleted: objectKeys.length,
          metadata: { ...due.metadata, outcome },
        })
        .where(eq(tierDowngrades.id, due.id));
      return { objectKeys };
    });
    if (!claimed) return handled;
    handled += 1;
    const results = await Promise.allSettled(
      claimed.objectKeys.map((key) => deps.videoStore.deleteObject(key)),
    );
    const failed = results.filter((result) => result.status === 'rejected').length;
    if (failed > 0) deps.log.warn({ failed }, 'cloud retention: some copies could not be deleted');
  }
}
