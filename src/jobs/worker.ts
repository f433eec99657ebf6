// The job worker loop, used by `npm run worker` (src/worker.ts) and by the server's autorun
// (jobs.autorun.intervalMs). Each pass: dispatch committed outbox events, then fill the free
// slots (jobs.concurrency) from each queue. It sleeps until a LISTEN/NOTIFY wake-up, a job
// finishing, or the poll interval, whichever comes first. Every reapIntervalMs it takes back the
// jobs of workers that stopped heartbeating.
//
// stop(): no new claims; running jobs get shutdownGraceMs to finish; the rest are released back
// to pending with their attempt given back.
import { dispatchEvents, DEFAULT_DISPATCH_BATCH } from '../events/dispatcher.js';
import { EVENTS_CHANNEL, JOBS_CHANNEL, listen, type Listener } from './listener.js';
import { JobRunner, type RunnerDeps } from './runner.js';
import { reapStaleJobs, type ProcessingOrder } from './store.js';

export interface WorkerOptions {
  queues: string[];
  concurrency: number;
  pollIntervalMs: number;
  heartbeatIntervalMs: number;
  staleAfterMs: number;
  reapIntervalMs: number;
  shutdownGraceMs: number;
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
    pollIntervalMs: jobs.pollIntervalMs,
    heartbeatIntervalMs: jobs.heartbeatIntervalMs,
    staleAfterMs: jobs.staleAfterMs,
    reapIntervalMs: jobs.reapIntervalMs,
    shutdownGraceMs: jobs.shutdownGraceMs,
    processingOrder: jobs.processingOrder,
    ...overrides,
  };
}

export function startJobWorker(deps: WorkerDeps, options: WorkerOptions): JobWorker {
  const logger = deps.logger.child({ component: 'job-worker' });
  const runner = new JobRunner({ ...deps, logger }, { workerId: options.workerId, heartbeatIntervalMs: options.heartbeatIntervalMs, processingOrder: options.processingOrder });
  const running = new Set<Promise<unknown>>();
  const dispatch = options.dispatch ?? true;
  let stopping = false;
  let wakeRequested = true;
  let sleeper: { timer: NodeJS.Timeout; resolve: () => void } | null = null;
  let nextReapAt = Date.now();
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
    ? listen(deps.databaseUrl, dispatch ? [JOBS_CHANNEL, EVENTS_CHANNEL] : [JOBS_CHANNEL], (channel, payload) => {
        if (channel === JOBS_CHANNEL && payload && !options.queues.includes(payload)) return;
        if (channel !== JOBS_CHANNEL) eventsDirty = true;
        wake();
      }, logger)
    : null;

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
    for (const queue of options.queues) {
      const free = options.concurrency - runner.inFlight;
      if (free <= 0 || stopping) break;
      const { jobs } = await runner.claim({ queue, limit: free });
      for (const job of jobs) {
        const execution = runner.execute(job).finally(() => {
          running.delete(execution);
          wake();
        });
        running.add(execution);
      }
      if (jobs.length === free) more = true;
    }
    if (Date.now() >= nextReapAt) {
      nextReapAt = Date.now() + options.reapIntervalMs;
      const reaped = await reapStaleJobs(deps.db, { staleAfterMs: options.staleAfterMs });
      if (reaped.length) logger.warn({ jobs: reaped.map((j) => ({ id: j.id, status: j.status })) }, 'reaped jobs of stopped workers');
    }
    return more;
  }

  const loop = (async () => {
    while (!stopping) {
      wakeRequested = false;
      let more = false;
      try {
        more = await pass();
      } catch (error) {
        logger.error({ err: error }, 'job worker pass failed');
        await sleep(ERROR_PAUSE_MS);
        continue;
      }
      if (stopping) break;
      if (more && runner.inFlight < options.concurrency) continue;
      if (!wakeRequested) await sleep(options.pollIntervalMs);
    }
  })();

  logger.info({ workerId: runner.workerId, queues: options.queues, concurrency: options.concurrency }, 'job worker started');

  return {
    runner,
    wake,
    async stop() {
      if (stopping) return { released: 0 };
      stopping = true;
      wake();
      await loop;
      await listener?.close();
      if (running.size) {
        let timer: NodeJS.Timeout | undefined;
        const grace = new Promise<void>((resolve) => { timer = setTimeout(resolve, options.shutdownGraceMs); });
        await Promise.race([Promise.allSettled([...running]), grace]);
        clearTimeout(timer);
      }
      const released = runner.inFlight ? await runner.releaseAll() : 0;
      if (released) logger.warn({ released }, 'released running jobs back to pending on shutdown');
      logger.info({ workerId: runner.workerId }, 'job worker stopped');
      return { released };
    },
  };
}
