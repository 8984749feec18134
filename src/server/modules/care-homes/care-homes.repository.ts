import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { careHomeResidents, careHomes, careHomeStaff, users } from '../../db/schema';

export type CareHomeRow = typeof careHomes.$inferSelect;
export type StaffRow = typeof careHomeStaff.$inferSelect;
export type ResidentLinkRow = typeof careHomeResidents.$inferSelect;

/** The home's own columns without the logo's bytes, which only the logo route reads. */
const HOME_COLUMNS = {
  id: careHomes.id,
  managerId: careHomes.managerId,
  name: careHomes.name,
  slug: careHomes.slug,
  accentHex: careHomes.accentHex,
  logoType: careHomes.logoType,
  logoUpdatedAt: careHomes.logoUpdatedAt,
  trialUsedAt: careHomes.trialUsedAt,
};
export type HomeSummaryRow = Pick<CareHomeRow, keyof typeof HOME_COLUMNS>;

export async function findHomeOfManager(
  db: DbOrTx,
  managerId: number,
): Promise<HomeSummaryRow | undefined> {
  const [row] = await db
    .select(HOME_COLUMNS)
    .from(careHomes)
    .where(eq(careHomes.managerId, managerId));
  return row;
}

export async function findHomeById(db: DbOrTx, id: number): Promise<HomeSummaryRow | undefined> {
  const [row] = await db.select(HOME_COLUMNS).from(careHomes).where(eq(careHomes.id, id));
  return row;
}

export async function findHomeBySlug(
  db: DbOrTx,
  slug: string,
): Promise<HomeSummaryRow | undefined> {
  const [row] = await db.select(HOME_COLUMNS).from(careHomes).where(eq(careHomes.slug, slug));
  return row;
}

/** The home at this address with its manager's plan, which decides whether its branding shows. */
export async function findHomeAndPlanBySlug(db: DbOrTx, slug: string) {
  const [row] = await db
    .select({ home: HOME_COLUMNS, managerTier: users.subscriptionTier })
    .from(careHomes)
    .innerJoin(users, eq(users.id, careHomes.managerId))
    .where(eq(careHomes.slug, slug));
  return row;
}

export async function isSlugTaken(db: DbOrTx, slug: string): Promise<boolean> {
  const [row] = await db
    .select({ id: careHomes.id })
    .from(careHomes)
    .where(eq(careHomes.slug, slug));
  return row !== undefined;
}

export async function insertHome(
  db: DbOrTx,
  values: typeof careHomes.$inferInsert,
): Promise<HomeSummaryRow> {
  const [row] = await db.insert(careHomes).values(values).returning(HOME_COLUMNS);
  return row!;
}

export async function updateHome(
  db: DbOrTx,
  id: number,
  values: Partial<typeof careHomes.$inferInsert>,
): Promise<HomeSummaryRow> {
  const [row] = await db
    .update(careHomes)
    .set(values)
    .where(eq(careHomes.id, id))
    .returning(HOME_COLUMNS);
  return row!;
}

export async function findLogoBySlug(db: DbOrTx, slug: string) {
  const [row] = await db
    .select({ logo: careHomes.logo, logoType: careHomes.logoType })
    .from(careHomes)
    .where(eq(careHomes.slug, slug));
  return row;
}

export function listStaff(db: DbOrTx, careHomeId: number): Promise<StaffRow[]> {
  return db
    .select()
    .from(careHomeStaff)
    .where(eq(careHomeStaff.careHomeId, careHomeId))
    .orderBy(asc(careHomeStaff.lastName), asc(careHomeStaff.firstName), asc(careHomeStaff.id));
}

export async function findStaffById(db: DbOrTx, id: number): Promise<StaffRow | undefined> {
  const [row] = await db.select().from(careHomeStaff).where(eq(careHomeStaff.id, id));
  return row;
}

export async function findStaffByEmail(
  db: DbOrTx,
  careHomeId: number,
  email: string,
): Promise<StaffRow | undefined> {
  const [row] = await db
    .select()
    .from(careHomeStaff)
    .where(
      and(
        eq(careHomeStaff.careHomeId, careHomeId),
        sql`lower(${careHomeStaff.email}) = ${email.toLowerCase()}`,
      ),
    );
  return row;
}

/** The invitation whose token hashes to this, locked while it is taken. */
export async function lockStaffByTokenHash(
  db: DbOrTx,
  tokenHash: string,
): Promise<StaffRow | undefined> {
  const [row] = await db
    .select()
    .from(careHomeStaff)
    .where(eq(careHomeStaff.inviteTokenHash, tokenHash))
    .for('update');
  return row;
}

export async function insertStaff(
  db: DbOrTx,
  values: typeof careHomeStaff.$inferInsert,
): Promise<StaffRow> {
  const [row] = await db.insert(careHomeStaff).values(values).returning();
  return row!;
}

export async function updateStaff(
  db: DbOrTx,
  id: number,
  values: Partial<typeof careHomeStaff.$inferInsert>,
): Promise<StaffRow> {
  const [row] = await db
    .update(careHomeStaff)
    .set(values)
    .where(eq(careHomeStaff.id, id))
    .returning();
  return row!;
}

/** The import keys (name and room) of everyone the home has ever linked. */
export async function findImportKeys(db: DbOrTx, careHomeId: number): Promise<Set<string>> {
  const rows = await db
    .select({ key: careHomeResidents.importKey })
    .from(careHomeResidents)
    .where(eq(careHomeResidents.careHomeId, careHomeId));
  return new Set(rows.map((row) => row.key));
}

export async function insertResidentLink(
  db: DbOrTx,
  values: typeof careHomeResidents.$inferInsert,
): Promise<ResidentLinkRow> {
  const [row] = await db.insert(careHomeResidents).values(values).returning();
  return row!;
}

export async function findResidentLink(
  db: DbOrTx,
  id: number,
): Promise<(ResidentLinkRow & { username: string }) | undefined> {
  const [row] = await db
    .select({ link: careHomeResidents, username: users.username })
    .from(careHomeResidents)
    .innerJoin(users, eq(users.id, careHomeResidents.userId))
    .where(eq(careHomeResidents.id, id));
  return row ? { ...row.link, username: row.username } : undefined;
}

export async function updateResidentLink(
  db: DbOrTx,
  id: number,
  values: Partial<typeof careHomeResidents.$inferInsert>,
): Promise<void> {
  await db.update(careHomeResidents).set(values).where(eq(careHomeResidents.id, id));
}

const LOGIN = sql`a.event_type = 'login' and a.successful`;
const FAMILY = sql`r.category in ('next_of_kin', 'family', 'friend')`;

/**
 * One row a resident with counts and dates only: the videos are counted here, in the database,
 * so no message's id, title or address ever reaches the care-home service.
 */
/**
 * The progress table's rows, one a resident, counted in this one query. `stuckBefore`: an upload
 * started before then and still unfinished, of a message not yet in the cloud, counts as stuck
 * (a sealed copy replacing one already sent does not: the message is safe).
 */
export function findProgressRows(db: DbOrTx, careHomeId: number, stuckBefore: Date) {
  return db
    .select({
      id: careHomeResidents.id,
      userId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      room: careHomeResidents.room,
      status: careHomeResidents.status,
      statusChangedAt: careHomeResidents.statusChangedAt,
      consentBasis: careHomeResidents.consentBasis,
      pausedAt: careHomeResidents.pausedAt,
      addedAt: careHomeResidents.createdAt,
      recorded: sql<number>`(select count(*)::int from videos v where v.creator_id = ${users.id})`,
      sent: sql<number>`(select count(*)::int from videos v
        where v.creator_id = ${users.id} and v.sync_status = 'synced')`,
      lastRecordedAt: sql`(select max(v.created_at) from videos v
        where v.creator_id = ${users.id})`.mapWith(careHomeResidents.createdAt),
      familyTotal: sql<number>`(select count(*)::int from users r
        where r.created_by_id = ${users.id} and ${FAMILY})`,
      familyJoined: sql<number>`(select count(*)::int from users r
        where r.created_by_id = ${users.id} and ${FAMILY}
          and exists (select 1 from audit_logs a where a.user_id = r.id and ${LOGIN}))`,
      lastSessionAt: sql`(select max(a.timestamp) from audit_logs a
        where a.user_id = ${users.id} and ${LOGIN})`.mapWith(careHomeResidents.createdAt),
      // By uploads_user_status_idx: the few unfinished uploads of this resident.
      stuckUploads: sql<number>`(select count(*)::int from uploads u
        join videos v on v.id = u.video_id
        where u.user_id = ${users.id} and u.status in ('active', 'completing')
          and u.created_at < ${stuckBefore.toISOString()}::timestamptz
          and v.sync_status <> 'synced')`,
    })
    .from(careHomeResidents)
    .innerJoin(users, eq(users.id, careHomeResidents.userId))
    .where(eq(careHomeResidents.careHomeId, careHomeId))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(careHomeResidents.id));
}

/** Each resident's next of kin: the name and the email (which the service masks). */
export async function findNextOfKinOf(db: DbOrTx, ownerIds: number[]) {
  if (ownerIds.length === 0) return [];
  return db
    .select({
      ownerId: users.createdById,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    })
    .from(users)
    .where(and(inArray(users.createdById, ownerIds), eq(users.category, 'next_of_kin')));
}

/**
 * The home's active residents (all, or the links named) with their next of kin, and whether that
 * next of kin has ever signed in: who an invitation letter is for.
 */
export async function findLetterTargets(db: DbOrTx, careHomeId: number, linkIds?: number[]) {
  const kin = alias(users, 'kin');
  return db
    .select({
      linkId: careHomeResidents.id,
      room: careHomeResidents.room,
      resident: {
        id: users.id,
        username: users.username,
        firstName: users.firstName,
        lastName: users.lastName,
      },
      nextOfKin: {
        id: kin.id,
        firstName: kin.firstName,
        lastName: kin.lastName,
        email: kin.email,
        accessCodeForm: kin.accessCodeForm,
      },
      hasJoined: sql<boolean>`exists (select 1 from audit_logs a
        where a.user_id = ${kin.id} and ${LOGIN})`,
    })
    .from(careHomeResidents)
    .innerJoin(users, eq(users.id, careHomeResidents.userId))
    .innerJoin(kin, and(eq(kin.createdById, users.id), eq(kin.category, 'next_of_kin')))
    .where(
      and(
        eq(careHomeResidents.careHomeId, careHomeId),
        eq(careHomeResidents.status, 'active'),
        linkIds ? inArray(careHomeResidents.id, linkIds) : undefined,
      ),
    )
    .orderBy(asc(users.lastName), asc(users.firstName), asc(careHomeResidents.id));
}

/** The home this account lives at as a resident (one link an account), with the link's state. */
export async function findHomeOfResident(db: DbOrTx, userId: number) {
  const [row] = await db
    .select({
      home: HOME_COLUMNS,
      status: careHomeResidents.status,
      pausedAt: careHomeResidents.pausedAt,
      managerTier: users.subscriptionTier,
    })
    .from(careHomeResidents)
    .innerJoin(careHomes, eq(careHomes.id, careHomeResidents.careHomeId))
    .innerJoin(users, eq(users.id, careHomes.managerId))
    .where(eq(careHomeResidents.userId, userId));
  return row;
}

/** The manager's home has had its trial: at most once, so the first start is the one kept. */
export async function markHomeTrialUsed(db: DbOrTx, managerId: number, at: Date): Promise<void> {
  await db
    .update(careHomes)
    .set({ trialUsedAt: at })
    .where(and(eq(careHomes.managerId, managerId), isNull(careHomes.trialUsedAt)));
}
