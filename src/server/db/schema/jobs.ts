import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The schedule of timed work. */

/**
 * The app's timed work (session clean-up, cloud retention, the orphan sweep, billing, legacy
 * release): one row a job, holding when it runs next, so the schedule survives restarts and runs
 * each job on one server at a time.
 */
export const scheduledJobs = pgTable('scheduled_jobs', {
  name: text('name').primaryKey(),
  nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  lastRunAt: timestamp('last_run_at', { withTimezone: true }),
  lastError: text('last_error'),
  runs: integer('runs').notNull().default(0),
});
