// The runner: claims jobs (store.claimJobs), runs each handler while heartbeating its claim, and
// records the outcome (store.ts lists every state move). One runner serves one process; any
// number of processes can run runners against one database.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Config } from '../config/index.js';
import type { Db } from '../db/client.js';
import type { Logger } from '../logger.js';
import type { Services } from '../services.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { backoffDelayMs } from './backoff.js';
import { observeJob, splitTraceparent } from '../observability/job-trace.js';
import { claimJobs, completeJobs, failJob, heartbeatJobs, releaseJobs, sqlState, type Claim, type ClaimedJob, type ProcessingOrder } from './store.js';
import { JobError, retryPolicyOf, tasks as defaultRegistry, type TaskContext, type TaskRegistry } from './tasks.js';

export interface RunnerDeps {
  db: Db;
  config: Config;
  logger: Logger;
  services: Services;
  registry?: TaskRegistry;
}

export interface RunnerOptions {
  /** Names this runner in jobs.locked_by (host:pid:random by default). */
  workerId?: string;
  heartbeatIntervalMs?: number;
  processingOrder?: ProcessingOrder;
}

export interface BatchOptions {
  queue: string;
  limit: number;
  organizationId?: string;
}

/** What became of one job a runner ran. `lost`: its claim was taken back before it finished. */
export interface JobOutcome {
  id: string;
  taskSlug: string;
  status: 'succeeded' | 'pending' | 'failed' | 'lost';
  attempts: number;
  error?: string;
  waitUntil?: Date | null;
}

export interface BatchReport {
  queue: string;
  claimed: number;
  succeeded: number;
  retrying: number;
  failed: number;
  /** Exclusive jobs the batch took and left pending, attempts untouched (their key was busy). */
  released: number;
  jobs: JobOutcome[];
}

interface Running {
  claim: Claim;
  /** Made when the handler first reads ctx.signal: most handlers never do, and one per job costs. */
  controller?: AbortController;
  /** Why the job was aborted before its handler read the signal (given to the signal when made). */
  abortReason?: Error;
  /** Set when the heartbeat found the claim gone: the outcome is not recorded. */
  lost: boolean;
}

const MAX_COMPLETION_BATCH = 500;

/** Outcome writes that met an unavailable database are tried again after 250 ms, doubling to 2 s. */
const RECORD_RETRY_FIRST_MS = 250;
const RECORD_RETRY_MAX_MS = 2000;

/** Deadlocks and serialization failures end a claim attempt; the next tick tries again. */
const TRANSIENT_SQLSTATES = new Set(['40P01', '40001', '55P03']);

function signalOf(running: Running): AbortSignal {
  if (!running.controller) {
    running.controller = new AbortController();
    if (running.abortReason) running.controller.abort(running.abortReason);
  }
  return running.controller.signal;
}

function abort(running: Running, reason: Error): void {
  if (running.controller) running.controller.abort(reason);
  else running.abortReason ??= reason;
}

export function defaultWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === 'string' ? error : (JSON.stringify(error) ?? String(error));
}

export class JobRunner {
  readonly workerId: string;
  private readonly registry: TaskRegistry;
  private readonly heartbeatIntervalMs: number;
  private readonly running = new Map<string, Running>();
  /**
   * Claims held in a worker's local queue, not started yet. They are claimed like running jobs
   * (processing, locked_by, lock_token), so they heartbeat with them: a process that dies with
   * jobs buffered leaves them to the reaper, like its running ones.
   */
  private readonly held = new Map<string, Claim>();
  private heartbeatTimer: NodeJS.Timeout | null = null;
  /** Completions waiting to be written together (see complete()). */
  private completions: Array<{ claim: Claim; output: unknown; resolve(recorded: boolean): void; reject(error: unknown): void }> = [];
  private flushScheduled = false;

  constructor(
    private readonly deps: RunnerDeps,
    private readonly options: RunnerOptions = {},
  ) {
    this.workerId = options.workerId ?? defaultWorkerId();
    this.registry = deps.registry ?? defaultRegistry;
    this.heartbeatIntervalMs = options.heartbeatIntervalMs ?? deps.config.jobs.heartbeatIntervalMs;
  }

  /** Jobs this runner is running now (handler running, or its outcome being written). */
  get inFlight(): number {
    return this.running.size;
  }

  /** Claimed jobs waiting in a local queue (see hold()). */
  get heldCount(): number {
    return this.held.size;
  }

  /** Keeps claimed jobs alive (heartbeat) until take() hands them to execute(). */
  hold(jobs: ClaimedJob[]): void {
    for (const job of jobs) this.held.set(job.id, { id: job.id, lockToken: job.lockToken });
    if (this.held.size) this.ensureHeartbeat();
  }

  /** Takes a held job out for execution; false when its claim was lost meanwhile (reaped). */
  take(id: string): boolean {
    // The heartbeat keeps going: the job is about to run (execute() stops it when all is done).
    return this.held.delete(id);
  }

  /** Hands every held (never started) job back: pending again, attempt given back. */
  async releaseHeld(): Promise<number> {
    const claims = [...this.held.values()];
    this.held.clear();
    if (this.running.size === 0) this.stopHeartbeat();
    return releaseJobs(this.deps.db, claims);
  }

  /** Claims up to `limit` jobs of a queue; the caller runs them with execute(). */
  async claim(options: BatchOptions): Promise<{ jobs: ClaimedJob[]; released: number }> {
    try {
      return await claimJobs(this.deps.db, {
        queue: options.queue,
        limit: options.limit,
        organizationId: options.organizationId,
        workerId: this.workerId,
        order: this.options.processingOrder ?? this.deps.config.jobs.processingOrder,
      });
    } catch (error) {
      const state = sqlState(error);
      if (state && TRANSIENT_SQLSTATES.has(state)) {
        this.deps.logger.debug({ sqlState: state }, 'job claim gave way to a concurrent claim');
        return { jobs: [], released: 0 };
      }
      throw error;
    }
  }

  /** One batch: claim, run every claimed job concurrently, report. */
  async runBatch(options: BatchOptions): Promise<BatchReport> {
    const { jobs, released } = await this.claim(options);
    const outcomes = await Promise.all(jobs.map((job) => this.execute(job)));
    return {
      queue: options.queue,
      claimed: jobs.length,
      succeeded: outcomes.filter((o) => o.status === 'succeeded').length,
      retrying: outcomes.filter((o) => o.status === 'pending').length,
      failed: outcomes.filter((o) => o.status === 'failed').length,
      released,
      jobs: outcomes,
    };
  }

  /**
   * Runs one claimed job to its next state. Never throws: a failure is the job's outcome.
   * `onHandlerDone` is called as soon as the handler returned or threw, before the outcome is
   * written: the worker frees the job's slot then, so a slot never waits on a batched write.
   */
  async execute(job: ClaimedJob, onHandlerDone?: () => void): Promise<JobOutcome> {
    const claim: Claim = { id: job.id, lockToken: job.lockToken };
    const base = { id: job.id, taskSlug: job.taskSlug, attempts: job.attempts };
    const task = this.registry.get(job.taskSlug);
    // The job's child logger is made on first use: most runs never log, and a child per job costs.
    let child: Logger | undefined;
    const parent = this.deps.logger;
    const logger = () => (child ??= parent.child({ jobId: job.id, task: job.taskSlug, attempt: job.attempts }));
    if (!task) {
      onHandlerDone?.();
      const error = `unknown task slug "${job.taskSlug}": no task with that slug is registered in this process`;
      const result = await this.recordFailure(claim, null, error, { retry: false, delayMs: 0 }, logger);
      return { ...base, status: result?.status ?? 'lost', error };
    }

    const running: Running = { claim, lost: false };
    this.running.set(job.id, running);
    this.ensureHeartbeat();
    const ctx: TaskContext = {
      job,
      organizationId: job.organizationId,
      db: this.deps.db,
      get logger() {
        return logger();
      },
      services: this.deps.services,
      config: this.deps.config,
      get signal() {
        return signalOf(running);
      },
    };
    try {
      let output: unknown;
      try {
        // The input's trace key is the runner's, not the handler's (observability/job-trace.ts).
        const { input, traceparent } = splitTraceparent(job.input);
        output = await observeJob(this.deps.services.metrics, job, traceparent, async () => task.handler(input as never, ctx));
        JSON.stringify(output ?? null); // an output that cannot be stored fails the job, not the runner
      } catch (error) {
        onHandlerDone?.();
        if (running.lost) return { ...base, status: 'lost', error: messageOf(error) };
        const policy = retryPolicyOf(task, this.deps.config);
        const retry = !(error instanceof JobError && !error.retry);
        const delayMs = error instanceof JobError && error.retryAfterMs !== undefined ? error.retryAfterMs : backoffDelayMs(policy.backoff, job.attempts);
        const message = messageOf(error);
        logger().warn({ err: error }, 'job attempt failed');
        const result = await this.recordFailure(claim, running, message, { retry, delayMs }, logger);
        return { ...base, status: result?.status ?? 'lost', error: message, waitUntil: result?.waitUntil ?? null };
      }
      onHandlerDone?.();
      if (running.lost) return { ...base, status: 'lost' };
      try {
        const recorded = await this.recording(running, () => this.complete(claim, output), logger);
        return { ...base, status: recorded ? 'succeeded' : 'lost' };
      } catch (error) {
        // The job ran but its outcome could not be written: its heartbeat stops and the reaper
        // returns it, so it runs again (handlers are at-least-once).
        logger().error({ err: error }, 'could not record a job outcome');
        return { ...base, status: 'lost', error: messageOf(error) };
      }
    } finally {
      this.running.delete(job.id);
      if (this.running.size === 0 && this.held.size === 0) this.stopHeartbeat();
    }
  }

  /**
   * Records a success. Jobs finishing in the same turn of the event loop, or while the previous
   * write is in flight, are written in one statement (group commit): one round trip per group
   * instead of one per job.
   */
  private complete(claim: Claim, output: unknown): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.completions.push({ claim, output, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => void this.flushCompletions());
      }
    });
  }

  private async flushCompletions(): Promise<void> {
    while (this.completions.length) {
      // Take the whole queue when it fits (no copying of what is left, as splice would do on
      // every flush while a large local queue finishes faster than one write).
      let batch = this.completions;
      if (batch.length <= MAX_COMPLETION_BATCH) this.completions = [];
      else batch = this.completions.splice(0, MAX_COMPLETION_BATCH);
      try {
        const recorded = await completeJobs(this.deps.db, batch);
        for (const item of batch) item.resolve(recorded.has(item.claim.id));
      } catch (error) {
        for (const item of batch) item.reject(error);
      }
    }
    this.flushScheduled = false;
  }

  private async recordFailure(claim: Claim, running: Running | null, error: string, options: { retry: boolean; delayMs: number }, logger: () => Logger) {
    try {
      return await this.recording(running, () => failJob(this.deps.db, claim, error, options), logger);
    } catch (dbError) {
      logger().error({ err: dbError }, 'could not record a job failure');
      return null;
    }
  }

  /**
   * Writes a job's outcome, trying again with backoff while the database is unavailable (a
   * restart): the job stays running, its heartbeat going on, so the outcome lands within seconds
   * of the database coming back instead of the reaper taking the job back staleAfterMs later.
   * Gives up (throws) on any other error, once the claim is lost (reaped, or released by a
   * stopping worker), or after staleAfterMs, when the reaper may have taken the job anyway.
   */
  private async recording<T>(running: Running | null, write: () => Promise<T>, logger: () => Logger): Promise<T> {
    const deadline = Date.now() + this.deps.config.jobs.staleAfterMs;
    let delay = RECORD_RETRY_FIRST_MS;
    for (let tries = 1; ; tries += 1) {
      try {
        const result = await write();
        if (tries > 1) logger().info({ tries }, 'recorded a job outcome once the database was back');
        return result;
      } catch (error) {
        if (!isDatabaseUnavailable(error) || running?.lost || Date.now() + delay > deadline) throw error;
        if (tries === 1) logger().warn({ err: error }, 'database unavailable while recording a job outcome; trying again');
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(delay * 2, RECORD_RETRY_MAX_MS);
      }
    }
  }

  /**
   * Hands every running job back (processing → pending, attempt given back) and aborts its
   * handler's signal: a stopping worker that could not wait for them to finish.
   */
  async releaseAll(): Promise<number> {
    const claims = [...this.running.values()];
    for (const running of claims) {
      running.lost = true;
      abort(running, new Error('the worker is shutting down; the job was released'));
    }
    this.stopHeartbeat();
    return releaseJobs(
      this.deps.db,
      claims.map((r) => r.claim),
    );
  }

  /**
   * One heartbeat for all running and held jobs; a claim that is gone aborts its handler, or
   * drops the held job (take() then refuses it).
   */
  async heartbeat(): Promise<void> {
    const claims = [...this.running.values()];
    const waiting = [...this.held.values()];
    if (claims.length === 0 && waiting.length === 0) return;
    const held = await heartbeatJobs(this.deps.db, [...claims.map((r) => r.claim), ...waiting]);
    for (const claim of waiting) {
      if (held.has(claim.id) || !this.held.has(claim.id)) continue;
      this.held.delete(claim.id);
      this.deps.logger.warn({ jobId: claim.id }, 'held job claim lost');
    }
    for (const running of claims) {
      if (held.has(running.claim.id) || !this.running.has(running.claim.id)) continue;
      running.lost = true;
      abort(running, new Error('the job was taken back by the reaper: its heartbeat had stopped'));
      this.deps.logger.warn({ jobId: running.claim.id }, 'job claim lost');
    }
  }

  private ensureHeartbeat(): void {
    if (this.heartbeatTimer) return;
    this.heartbeatTimer = setInterval(() => {
      this.heartbeat().catch((error: unknown) => this.deps.logger.error({ err: error }, 'job heartbeat failed'));
    }, this.heartbeatIntervalMs);
    this.heartbeatTimer.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
  }
}
