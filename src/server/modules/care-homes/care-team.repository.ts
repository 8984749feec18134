import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  accountKeys,
  careHomeResidents,
  careHomes,
  careHomeStaff,
  careTeamShares,
  users,
  videos,
} from '../../db/schema';

export type CareTeamShareRow = typeof careTeamShares.$inferSelect;

/** Whether the resident's account seals its copies (enhanced encryption on). */
const IS_SEALED = sql<boolean>`exists (select 1 from ${accountKeys}
  where ${accountKeys.userId} = ${videos.creatorId})`;

/** The resident as a share's rule reads them, with their link to a home (or none). */
const RESIDENT_COLUMNS = {
  id: users.id,
  username: users.username,
  firstName: users.firstName,
  lastName: users.lastName,
  legacyReleasedAt: users.legacyReleasedAt,
};
const RESIDENCE_COLUMNS = {
  careHomeId: careHomeResidents.careHomeId,
  status: careHomeResidents.status,
  statusChangedAt: careHomeResidents.statusChangedAt,
};

/** A care home this account manages, or works at as active staff, with the name it knows them by. */
export interface Membership {
  careHomeId: number;
  homeName: string;
  role: 'manager' | 'staff';
  firstName: string;
  lastName: string;
}

export async function findMembershipsOf(db: DbOrTx, userId: number): Promise<Membership[]> {
  const [managed, staff] = await Promise.all([
    db
      .select({
        careHomeId: careHomes.id,
        homeName: careHomes.name,
        firstName: users.firstName,
        lastName: users.lastName,
      })
      .from(careHomes)
      .innerJoin(users, eq(users.id, careHomes.managerId))
      .where(eq(careHomes.managerId, userId)),
    db
      .select({
        careHomeId: careHomeStaff.careHomeId,
        homeName: careHomes.name,
        firstName: careHomeStaff.firstName,
        lastName: careHomeStaff.lastName,
      })
      .from(careHomeStaff)
      .innerJoin(careHomes, eq(careHomes.id, careHomeStaff.careHomeId))
      .where(
        and(
          eq(careHomeStaff.userId, userId),
          isNotNull(careHomeStaff.acceptedAt),
          isNull(careHomeStaff.disabledAt),
        ),
      )
      .orderBy(asc(careHomeStaff.id)),
  ]);
  return [
    ...managed.map((row) => ({ ...row, role: 'manager' as const })),
    ...staff.map((row) => ({ ...row, role: 'staff' as const })),
  ];
}

/** A shared message with all its rule reads: the video, the share, the resident and their home. */
export async function findSharedVideo(db: DbOrTx, videoId: string) {
  const [row] = await db
    .select({
      video: videos,
      share: careTeamShares,
      resident: RESIDENT_COLUMNS,
      residence: RESIDENCE_COLUMNS,
      isSealed: IS_SEALED,
    })
    .from(careTeamShares)
    .innerJoin(videos, eq(videos.id, careTeamShares.videoId))
    .innerJoin(users, eq(users.id, videos.creatorId))
    .leftJoin(careHomeResidents, eq(careHomeResidents.userId, videos.creatorId))
    .where(eq(careTeamShares.videoId, videoId));
  return row;
}

/**
 * The cloud copies shared with these homes, newest first, with what the rule reads; the rule
 * itself (access.ts) then says which the asker may see. Nothing sealed, nothing not yet sent.
 */
export function findSharedWithHomes(db: DbOrTx, careHomeIds: number[]) {
  return db
    .select({
      video: {
        id: videos.id,
        title: videos.title,
        createdAt: videos.createdAt,
        durationMs: videos.durationMs,
        releaseRule: videos.releaseRule,
        releaseAt: videos.releaseAt,
        sealedKeyWrap: videos.sealedKeyWrap,
      },
      share: careTeamShares,
      resident: RESIDENT_COLUMNS,
      residence: RESIDENCE_COLUMNS,
      isSealed: IS_SEALED,
    })
    .from(careTeamShares)
    .innerJoin(videos, eq(videos.id, careTeamShares.videoId))
    .innerJoin(users, eq(users.id, videos.creatorId))
    .innerJoin(
      careHomeResidents,
      and(
        eq(careHomeResidents.userId, videos.creatorId),
        eq(careHomeResidents.careHomeId, careTeamShares.careHomeId),
      ),
    )
    .where(
      and(
        inArray(careTeamShares.careHomeId, careHomeIds),
        eq(careHomeResidents.status, 'active'),
        eq(videos.storageType, 'cloud'),
        eq(videos.syncStatus, 'synced'),
        isNotNull(videos.cloudPath),
        isNull(videos.sealedKeyWrap),
        isNull(videos.pairingKeyWrap),
      ),
    )
    .orderBy(desc(videos.createdAt), asc(videos.id));
}

/** The messages a resident shares with this home, newest first. */
export function findSharesOfResident(db: DbOrTx, residentId: number, careHomeId: number) {
  return db
    .select({
      share: careTeamShares,
      video: {
        id: videos.id,
        title: videos.title,
        createdAt: videos.createdAt,
        storageType: videos.storageType,
        syncStatus: videos.syncStatus,
        releaseRule: videos.releaseRule,
        releaseAt: videos.releaseAt,
      },
    })
    .from(careTeamShares)
    .innerJoin(videos, eq(videos.id, careTeamShares.videoId))
    .where(and(eq(videos.creatorId, residentId), eq(careTeamShares.careHomeId, careHomeId)))
    .orderBy(desc(videos.createdAt), asc(videos.id));
}

/** Shares the message anew (a share made before a move out counts no more, so it is renewed). */
export async function upsertShare(
  db: DbOrTx,
  values: { videoId: string; careHomeId: number; sharedAt: Date },
): Promise<void> {
  await db
    .insert(careTeamShares)
    .values(values)
    .onConflictDoUpdate({
      target: careTeamShares.videoId,
      set: { careHomeId: values.careHomeId, sharedAt: values.sharedAt },
    });
}

export async function findShare(
  db: DbOrTx,
  videoId: string,
): Promise<CareTeamShareRow | undefined> {
  const [row] = await db.select().from(careTeamShares).where(eq(careTeamShares.videoId, videoId));
  return row;
}

/** Ends the share of one of the owner's messages; whether there was one. */
export async function deleteShareOf(
  db: DbOrTx,
  ownerId: number,
  videoId: string,
): Promise<boolean> {
  const removed = await db
    .delete(careTeamShares)
    .where(
      and(
        eq(careTeamShares.videoId, videoId),
        inArray(
          careTeamShares.videoId,
          db.select({ id: videos.id }).from(videos).where(eq(videos.creatorId, ownerId)),
        ),
      ),
    )
    .returning({ videoId: careTeamShares.videoId });
  return removed.length > 0;
}

/** Where this account lives as a resident (one link an account), and since when, or nothing. */
export async function findResidenceOf(db: DbOrTx, userId: number) {
  const [row] = await db
    .select({
      ...RESIDENCE_COLUMNS,
      homeName: careHomes.name,
      legacyReleasedAt: users.legacyReleasedAt,
    })
    .from(careHomeResidents)
    .innerJoin(careHomes, eq(careHomes.id, careHomeResidents.careHomeId))
    .innerJoin(users, eq(users.id, careHomeResidents.userId))
    .where(eq(careHomeResidents.userId, userId));
  return row;
}
