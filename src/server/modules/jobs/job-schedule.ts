import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { messageOf } from '../../db/database-errors';
import { addMissingJobs, claimJob, findDueJobs, finishJob } from './jobs.repository';

export interface ScheduledJob {
  /** Stable name: the row in `scheduled_jobs` that holds when it runs next. */
  name: string;
  everyMs: number;
  /** `now` is the clock: the system clock in production, the test's own in tests. */
  run: (now: Date) => Promise<unknown>;
}

/** A job still running after this long is taken to have died with its server. */
const LEASE_MS = 15 * 60_000;
const POLL_INTERVAL_MS = 30_000;

/**
 * The app's timed work, on one schedule kept in the database: each job's next run is a row, so
 * the schedule survives restarts, work that fell due while every server was down runs once on
 * the next start, and with several app servers each run happens on exactly one of them.
 */
export class JobSchedule {
  private readonly jobs = new Map<string, ScheduledJob>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** Whether every job has its row: written once per server, not on every poll. */
  private hasRows = false;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly clock: { now(): Date },
  ) {}

  add(job: ScheduledJob): void {
    this.jobs.set(job.name, job);
    this.hasRows = false;
  }

  start(): void {
    this.timer = setInterval(() => void this.runDue(this.clock.now()), POLL_INTERVAL_MS);
    this.timer.unref();
    void this.runDue(this.clock.now());
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /**
   * Runs every job that is due at `now` and that no other server holds. Calls while a run is
   * going wait for it, then run again with their own clock.
   */
  async runDue(now: Date): Promise<string[]> {
    while (this.running) await this.running;
    let ran: string[] = [];
    this.running = this.runOnce(now)
      .then((names) => {
        ran = names;
      })
      .finally(() => {
        this.running = undefined;
      });
    await this.running;
    return ran;
  }

  private async runOnce(now: Date): Promise<string[]> {
    const names = [...this.jobs.keys()];
    let due: string[];
    try {
      if (!this.hasRows) {
        await addMissingJobs(this.db, names, now);
        this.hasRows = true;
      }
      due = await findDueJobs(this.db, names, now);
    } catch (error) {
      // The database is away: the next poll tries again.
      this.log.warn({ err: error }, 'job schedule: could not read the schedule');
      return [];
    }
    const ran: string[] = [];
    for (const name of due) {
      const job = this.jobs.get(name);
      if (!job) continue;
      if (await this.runJob(job, now)) ran.push(name);
    }
    return ran;
  }

  private async runJob(job: ScheduledJob, now: Date): Promise<boolean> {
    try {
      if (!(await claimJob(this.db, { name: job.name, now, leaseMs: LEASE_MS }))) return false;
    } catch (error) {
      this.log.warn({ err: error, job: job.name }, 'job schedule: could not claim a job');
      return false;
    }
    let failure: string | null = null;
    try {
      await job.run(now);
    } catch (error) {
      failure = messageOf(error).slice(0, 500);
      this.log.warn({ err: error, job: job.name }, 'scheduled job failed');
    }
    const nextRunAt = new Date(now.getTime() + job.everyMs);
    await finishJob(this.db, { name: job.name, ranAt: now, nextRunAt, error: failure }).catch(
      (error: unknown) =>
        this.log.warn({ err: error, job: job.name }, 'job schedule: could not record a run'),
    );
    return true;
  }
}
