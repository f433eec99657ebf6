// The job worker loop, used by `npm run worker` (src/worker.ts) and by the server's autorun
// (jobs.autorun.intervalMs). Each pass: dispatch committed outbox events, then refill each
// queue's local queue (local-queue.ts) when it runs low. Slots (jobs.concurrency) take their
// next job from the local queues as soon as a handler returns, without waiting for the loop or
// for the outcome's (batched) write. With jobs.localQueueSize at or below the concurrency a
// claim asks only for free slots; above it, up to that many jobs are claimed ahead in one
// statement. The loop sleeps until a LISTEN/NOTIFY wake-up, a local queue running low, or the
// poll interval, whichever comes first. Every reapIntervalMs it takes back the jobs of workers
// that stopped heartbeating.
//
// stop(): no new claims; jobs buffered but not started are released at once; running jobs get
// shutdownGraceMs to finish; the rest are released back to pending. Every release gives the
// attempt back.
import { dispatchEvents, DEFAULT_DISPATCH_BATCH } from '../events/dispatcher.js';
import { EVENTS_CHANNEL, JOBS_CHANNEL, listen, type Listener } from './listener.js';
import { LocalQueue } from './local-queue.js';
import { JobRunner, type RunnerDeps } from './runner.js';
import type { ClaimedJob } from './store.js';
import { pruneFinished } from './retention.js';
import { reapStaleJobs, type ProcessingOrder } from './store.js';

export interface WorkerOptions {
  queues: string[];
  concurrency: number;
  /** Jobs claimed ahead and held per queue, running ones included (≤ concurrency: none ahead). */
  localQueueSize?: number;
  pollIntervalMs: number;
  heartbeatIntervalMs: number;
  staleAfterMs: number;
  reapIntervalMs: number;
  shutdownGraceMs: number;
  /** Finished work older than this is deleted (see retention.ts). */
  retentionMaxAgeDays: number;
  /** How often this worker prunes. */
  retentionIntervalMs: number;
  processingOrder?: ProcessingOrder;
  workerId?: string;
  /** Dispatch outbox events too (default true). */
  dispatch?: boolean;
}

export interface WorkerDeps extends RunnerDeps {
  /** For the LISTEN connection; without it the worker only polls. */
  databaseUrl?: string;
}

export interface JobWorker {
  readonly runner: JobRunner;
  /**
   * Settles once the first pass is over (its statements prepared, its connections open): a
   * caller that measures the worker, or hands it work and waits, need not count the start-up.
   */
  readonly ready: Promise<void>;
  /** Runs a pass now instead of at the next wake-up. */
  wake(): void;
  stop(): Promise<{ released: number }>;
}

/** Pause after a failed pass (database down), so the loop does not spin. */
const ERROR_PAUSE_MS = 1000;

export function workerOptionsFrom(config: RunnerDeps['config'], overrides: Partial<WorkerOptions> = {}): WorkerOptions {
  const jobs = config.jobs;
  return {
    queues: jobs.queues,
    concurrency: jobs.concurrency,
    localQueueSize: jobs.localQueueSize,
    pollIntervalMs: jobs.pollIntervalMs,
    heartbeatIntervalMs: jobs.heartbeatIntervalMs,
    staleAfterMs: jobs.staleAfterMs,
    reapIntervalMs: jobs.reapIntervalMs,
    shutdownGraceMs: jobs.shutdownGraceMs,
    retentionMaxAgeDays: config.retention.maxAgeDays,
    retentionIntervalMs: config.retention.intervalMs,
    processingOrder: jobs.processingOrder,
    ...overrides,
  };
}

export function startJobWorker(deps: WorkerDeps, options: WorkerOptions): JobWorker {
  const logger = deps.logger.child({ component: 'job-worker' });
  const runner = new JobRunner({ ...deps, logger }, { workerId: options.workerId, heartbeatIntervalMs: options.heartbeatIntervalMs, processingOrder: options.processingOrder });
  const running = new Set<Promise<unknown>>();
  // A size at or below the concurrency claims for free slots only (low water = the whole size).
  const size = Math.max(options.concurrency, options.localQueueSize ?? 0);
  const lowWater = Math.max(options.concurrency, Math.floor(size / 2));
  const locals = options.queues.map((queue) => new LocalQueue(runner, queue, size, lowWater));
  /** Slots whose handler is running. */
  let busy = 0;
  const dispatch = options.dispatch ?? true;
  let stopping = false;
  let wakeRequested = true;
  let sleeper: { timer: NodeJS.Timeout; resolve: () => void } | null = null;
  let nextReapAt = Date.now();
  let nextPruneAt = Date.now();
  // Whether the outbox may hold undispatched events: set by an events notification, a (re)connect
  // of the listener, a poll timeout, or a full batch; without a listener, always.
  let eventsDirty = true;

  function wake(): void {
    wakeRequested = true;
    if (sleeper) {
      clearTimeout(sleeper.timer);
      const { resolve } = sleeper;
      sleeper = null;
      resolve();
    }
  }

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        sleeper = null;
        eventsDirty = true; // the safety net: look at the outbox on every poll
        resolve();
      }, ms);
      sleeper = { timer, resolve };
    });
  }

  const listener: Listener | null = deps.databaseUrl
    ? listen(
        deps.databaseUrl,
        dispatch ? [JOBS_CHANNEL, EVENTS_CHANNEL] : [JOBS_CHANNEL],
        (channel, payload) => {
          if (channel === JOBS_CHANNEL && payload && !options.queues.includes(payload)) return;
          if (channel !== JOBS_CHANNEL) eventsDirty = true;
          wake();
        },
        logger,
      )
    : null;

  function launch(job: ClaimedJob): void {
    busy += 1;
    let freed = false;
    const free = () => {
      if (freed) return;
      freed = true;
      busy -= 1;
      startSlots();
      if (!stopping && locals.some((l) => l.needsRefill())) wake();
    };
    const execution = runner.execute(job, free).finally(() => {
      running.delete(execution);
      free();
    });
    running.add(execution);
  }

  /** Fills free slots from the local queues, in the order of options.queues. */
  function startSlots(): void {
    while (!stopping && busy < options.concurrency) {
      let job: ClaimedJob | undefined;
      for (const local of locals) if ((job = local.take())) break;
      if (!job) return;
      launch(job);
    }
  }

  /** One pass; true when there is probably more to do right away. */
  async function pass(): Promise<boolean> {
    let more = false;
    if (dispatch && (eventsDirty || !listener)) {
      eventsDirty = false;
      const report = await dispatchEvents(deps, { limit: DEFAULT_DISPATCH_BATCH });
      // A full batch means more may wait; an event that failed waits for the next poll.
      if (report.dispatched === DEFAULT_DISPATCH_BATCH) {
        eventsDirty = true;
        more = true;
      }
    }
    for (const local of locals) {
      if (stopping) break;
      startSlots();
      if (!local.needsRefill()) continue;
      if (await local.refill(busy)) more = true;
      startSlots();
    }
    if (Date.now() >= nextReapAt) {
      nextReapAt = Date.now() + options.reapIntervalMs;
      const reaped = await reapStaleJobs(deps.db, { staleAfterMs: options.staleAfterMs });
      if (reaped.length) logger.warn({ jobs: reaped.map((j) => ({ id: j.id, status: j.status })) }, 'reaped jobs of stopped workers');
    }
    if (Date.now() >= nextPruneAt) {
      nextPruneAt = Date.now() + options.retentionIntervalMs;
      const pruned = await pruneFinished(deps.db, { maxAgeDays: options.retentionMaxAgeDays });
      if (pruned.events || pruned.jobs || pruned.webhookAttempts) logger.info({ pruned, maxAgeDays: options.retentionMaxAgeDays }, 'pruned finished work past retention');
    }
    return more;
  }

  let firstPassDone!: () => void;
  const ready = new Promise<void>((resolve) => (firstPassDone = resolve));
  const loop = (async () => {
    while (!stopping) {
      wakeRequested = false;
      let more = false;
      try {
        more = await pass();
      } catch (error) {
        logger.error({ err: error }, 'job worker pass failed');
        firstPassDone();
        await sleep(ERROR_PAUSE_MS);
        continue;
      }
      firstPassDone();
      if (stopping) break;
      if (more && locals.some((l) => l.needsRefill()) && busy < size) continue;
      if (!wakeRequested) await sleep(options.pollIntervalMs);
    }
  })();

  logger.info({ workerId: runner.workerId, queues: options.queues, concurrency: options.concurrency, localQueueSize: size }, 'job worker started');

  void loop.finally(() => firstPassDone());
  return {
    runner,
    ready,
    wake,
    async stop() {
      if (stopping) return { released: 0 };
      stopping = true;
      wake();
      await loop;
      await listener?.close();
      // Buffered jobs never started: hand them back now, not after the grace period.
      for (const local of locals) local.clear();
      const releasedHeld = runner.heldCount ? await runner.releaseHeld() : 0;
      if (releasedHeld) logger.info({ released: releasedHeld }, 'released buffered jobs back to pending on shutdown');
      if (running.size) {
        let timer: NodeJS.Timeout | undefined;
        const grace = new Promise<void>((resolve) => {
          timer = setTimeout(resolve, options.shutdownGraceMs);
        });
        await Promise.race([Promise.allSettled([...running]), grace]);
        clearTimeout(timer);
      }
      const released = runner.inFlight ? await runner.releaseAll() : 0;
      if (released) logger.warn({ released }, 'released running jobs back to pending on shutdown');
      logger.info({ workerId: runner.workerId }, 'job worker stopped');
      return { released: released + releasedHeld };
    },
  };
}
