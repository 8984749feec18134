import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps';
import { deleteExpiredSessions } from '../auth/sessions.repository';
import { endRunOutPlans } from '../billing/billing.service';
import { runOrphanSweep, type OrphanSweepResult } from '../cloud/orphan-sweep.service';
import { runCloudRetention } from '../cloud/retention.service';
import { deleteExpiredFlows } from '../external-sign-in/external-sign-in.repository';
import { runLegacyWork } from '../legacy/legacy-work.service';
import { deleteExpiredTransfers } from '../transfers/transfers.repository';
import { JobSchedule, type ScheduledJob } from './job-schedule';

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;
/** Legacy release: reminders and releases are due to the minute, so they are checked often. */
const LEGACY_CHECK_MS = 5 * 60_000;

type Deps = AppDeps;

/**
 * The nightly sweep, once a day across every app server. A sweep of a large store may list for
 * hours, so no other server starts one within the day, even after one that stopped half-way.
 */
function orphanSweepJob(deps: Deps): ScheduledJob<OrphanSweepResult> {
  return {
    name: 'cloud.orphan-sweep',
    everyMs: DAY_MS,
    leaseMs: DAY_MS,
    run: (now) => runOrphanSweep(deps, now),
  };
}

/** Every timed job of the app, one entry each: its name in `scheduled_jobs`, how often, what runs. */
export function timedJobs(deps: Deps): ScheduledJob[] {
  return [
    {
      name: 'sessions.cleanup',
      everyMs: HOUR_MS,
      run: (now) =>
        Promise.all([
          deleteExpiredSessions(deps.db, now),
          deleteExpiredFlows(deps.db, now),
          deleteExpiredTransfers(deps.db, now),
        ]),
    },
    { name: 'cloud.retention', everyMs: HOUR_MS, run: (now) => runCloudRetention(deps, now) },
    orphanSweepJob(deps),
    { name: 'billing.run-out-plans', everyMs: HOUR_MS, run: (now) => endRunOutPlans(deps, now) },
    { name: 'legacy', everyMs: LEGACY_CHECK_MS, run: (now) => runLegacyWork(deps, now) },
  ];
}

/** Scheduled work, callable with any clock (tests, and the console). */
export interface AppJobs {
  runCloudRetention(now: Date): Promise<number>;
  deliverMail(): Promise<void>;
  /** Billing: ends plans whose grace or cancelled period is over. */
  endRunOutPlans(now: Date): Promise<number>;
  /** The orphan sweep as the schedule runs it: `ran` is false when it is not due at `now`. */
  sweepOrphanedObjects(now: Date): Promise<OrphanSweepResult & { ran: boolean }>;
  runLegacyWork(now: Date): ReturnType<typeof runLegacyWork>;
  /** Every scheduled job that is due at `now` and held by no other server; their names. */
  runDue(now: Date): Promise<string[]>;
}

const NOTHING_SWEPT = { objectsRemoved: 0, uploadsRemoved: 0, failed: 0, uploadsListed: true };

/**
 * The schedule with every timed job on it (started and stopped by the app), and the same work
 * callable by hand.
 */
export function createJobs(
  deps: Deps,
  log: FastifyBaseLogger,
): { schedule: JobSchedule; jobs: AppJobs } {
  const schedule = new JobSchedule(deps.db, log, deps.clock);
  for (const job of timedJobs(deps)) schedule.add(job);
  const orphanSweep = orphanSweepJob(deps);
  return {
    schedule,
    jobs: {
      runCloudRetention: (now) => runCloudRetention(deps, now),
      deliverMail: () => deps.mail.deliverDue(),
      endRunOutPlans: (now) => endRunOutPlans(deps, now),
      sweepOrphanedObjects: async (now) => {
        const swept = await schedule.runIfDue(orphanSweep, now);
        return swept ? { ran: true, ...swept.result } : { ran: false, ...NOTHING_SWEPT };
      },
      runLegacyWork: (now) => runLegacyWork(deps, now),
      runDue: (now) => schedule.runDue(now),
    },
  };
}
