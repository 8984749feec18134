import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { messageOf } from '../../db/database-errors';
import type { Clock } from '../../lib/clock';
import { addMissingJobs, claimJob, findDueJobs, finishJob } from './jobs.repository';

export interface ScheduledJob<T = unknown> {
  /** Stable name: the row in `scheduled_jobs` that holds when it runs next. */
  name: string;
  everyMs: number;
  /** A run still going after this long is taken to have died with its server (15 minutes). */
  leaseMs?: number;
  /** `now` is the clock: the system clock in production, the test's own in tests. */
  run: (now: Date) => Promise<T>;
}

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
    private readonly clock: Clock,
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

  /**
   * Runs this one job if it is due at `now` and no other server holds it, as a poll would (its
   * failure is recorded, then thrown); answers its result, or undefined when it did not run.
   */
  async runIfDue<T>(job: ScheduledJob<T>, now: Date): Promise<{ result: T } | undefined> {
    await this.addRows(now);
    const done = await this.runJob(job, now);
    if (done && 'error' in done) throw done.error;
    return done;
  }

  private async addRows(now: Date): Promise<void> {
    if (this.hasRows) return;
    await addMissingJobs(this.db, [...this.jobs.keys()], now);
    this.hasRows = true;
  }

  private async runOnce(now: Date): Promise<string[]> {
    const names = [...this.jobs.keys()];
    let due: string[];
    try {
      await this.addRows(now);
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

  /** Claims and runs one job; undefined when it was not due or another server holds it. */
  private async runJob<T>(
    job: ScheduledJob<T>,
    now: Date,
  ): Promise<{ result: T } | { error: unknown } | undefined> {
    const leaseMs = job.leaseMs ?? LEASE_MS;
    try {
      if (!(await claimJob(this.db, { name: job.name, now, leaseMs }))) return undefined;
    } catch (error) {
      this.log.warn({ err: error, job: job.name }, 'job schedule: could not claim a job');
      return undefined;
    }
    let failure: string | null = null;
    let done: { result: T } | { error: unknown };
    try {
      done = { result: await job.run(now) };
    } catch (error) {
      done = { error };
      failure = messageOf(error).slice(0, 500);
      this.log.warn({ err: error, job: job.name }, 'scheduled job failed');
    }
    const nextRunAt = new Date(now.getTime() + job.everyMs);
    await finishJob(this.db, { name: job.name, ranAt: now, nextRunAt, error: failure }).catch(
      (error: unknown) =>
        this.log.warn({ err: error, job: job.name }, 'job schedule: could not record a run'),
    );
    return done;
  }
}
