// A worker's local queue for one job queue: jobs claimed ahead in one statement and handed to
// the concurrency slots as they free up, so a busy worker pays one claim round trip per batch
// instead of one per few jobs, and a slot never waits for a claim.
//
// A buffered job is claimed exactly like a running one (processing, locked_by, lock_token, its
// attempt counted) and heartbeats with the running jobs (JobRunner.hold): if the process dies,
// the reaper takes buffered jobs back with the running ones. On a clean stop they are released
// (pending again, attempt given back) before the grace period for running jobs starts.
import type { ClaimedJob } from './store.js';
import type { JobRunner } from './runner.js';

export class LocalQueue {
  private jobs: ClaimedJob[] = [];
  private head = 0;
  private fetching = false;

  /**
   * @param size jobs to hold at most (claimed ahead plus the ones about to start)
   * @param lowWater refill when this many or fewer are left, so the next batch arrives before
   *        the slots run dry
   */
  constructor(
    private readonly runner: JobRunner,
    readonly queue: string,
    private readonly size: number,
    private readonly lowWater: number,
  ) {}

  get length(): number {
    return this.jobs.length - this.head;
  }

  /** The next held job whose claim is still ours; undefined when empty. */
  take(): ClaimedJob | undefined {
    while (this.head < this.jobs.length) {
      // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
      const job = this.jobs[this.head]!;
      this.jobs[this.head] = undefined as never; // let it be collected
      this.head += 1;
      if (this.head === this.jobs.length) {
        this.jobs = [];
        this.head = 0;
      }
      if (this.runner.take(job.id)) return job;
    }
    return undefined;
  }

  needsRefill(): boolean {
    return !this.fetching && this.length <= this.lowWater;
  }

  /**
   * Claims up to `size - length - busy` more jobs in one statement (busy: slots in use, which
   * also count against the size, so a worker never holds more than `size` jobs in all).
   * Returns whether the claim came back full (more are probably waiting).
   */
  async refill(busy: number): Promise<boolean> {
    const limit = this.size - this.length - busy;
    if (this.fetching || limit <= 0) return false;
    this.fetching = true;
    try {
      const { jobs } = await this.runner.claim({ queue: this.queue, limit });
      this.runner.hold(jobs);
      for (const job of jobs) this.jobs.push(job);
      return jobs.length === limit;
    } finally {
      this.fetching = false;
    }
  }

  /** Drops every buffered job (the runner releases them: see JobRunner.releaseHeld). */
  clear(): void {
    this.jobs = [];
    this.head = 0;
  }
}
