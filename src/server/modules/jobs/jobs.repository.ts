import { and, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { scheduledJobs } from '../../db/schema';

/** Adds a row for each job that has none yet, due at once (a first start runs everything). */
export async function addMissingJobs(db: DbOrTx, names: string[], now: Date): Promise<void> {
  if (names.length === 0) return;
  await db
    .insert(scheduledJobs)
    .values(names.map((name) => ({ name, nextRunAt: now })))
    .onConflictDoNothing({ target: scheduledJobs.name });
}

/**
 * Takes one due job for this server: a single conditional update, so when several servers ask at
 * once exactly one of them gets it. The lease lets another server take it over if this one stops
 * half-way.
 */
export async function claimJob(
  db: DbOrTx,
  input: { name: string; now: Date; leaseMs: number },
): Promise<boolean> {
  const claimed = await db
    .update(scheduledJobs)
    .set({ lockedUntil: new Date(input.now.getTime() + input.leaseMs) })
    .where(
      and(
        eq(scheduledJobs.name, input.name),
        lte(scheduledJobs.nextRunAt, input.now),
        or(isNull(scheduledJobs.lockedUntil), lt(scheduledJobs.lockedUntil, input.now)),
      ),
    )
    .returning({ name: scheduledJobs.name });
  return claimed.length === 1;
}

/** The job ran (or failed): it is due again after its interval, counted from this run. */
export async function finishJob(
  db: DbOrTx,
  input: { name: string; ranAt: Date; nextRunAt: Date; error: string | null },
): Promise<void> {
  await db
    .update(scheduledJobs)
    .set({
      lockedUntil: null,
      lastRunAt: input.ranAt,
      nextRunAt: input.nextRunAt,
      lastError: input.error,
      runs: sql`${scheduledJobs.runs} + 1`,
    })
    .where(eq(scheduledJobs.name, input.name));
}

/** Names of the jobs that are due now and free, for one poll. */
export async function findDueJobs(db: DbOrTx, names: string[], now: Date): Promise<string[]> {
  if (names.length === 0) return [];
  const rows = await db
    .select({ name: scheduledJobs.name })
    .from(scheduledJobs)
    .where(
      and(
        inArray(scheduledJobs.name, names),
        lte(scheduledJobs.nextRunAt, now),
        or(isNull(scheduledJobs.lockedUntil), lt(scheduledJobs.lockedUntil, now)),
      ),
    );
  return rows.map((row) => row.name);
}
