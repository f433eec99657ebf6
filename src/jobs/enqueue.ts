// Enqueueing a job. Options (spec, Limits): organizationId (required; blank is rejected), queue
// (default `default`), delayMs, maxAttempts (counts the first run; default 1 + the task's
// retries), concurrencyKey (overrides the task's key), supersedes (overrides the task's policy).
// Pass the transaction of the write that asks for the job to make the two atomic: the job then
// exists, and its wake-up notification fires, only if that write commits.
import { randomUUID } from 'node:crypto';
import type { Config } from '../config/index.js';
import type { Db, Tx } from '../db/client.js';
import { validationFailed, type FieldIssue } from '../errors.js';
import type { Job } from '../generated/prisma/client.js';
import { dropSupersededJobs, insertJob, sqlState } from './store.js';
import { withTraceparent } from '../observability/job-trace.js';
import { retryPolicyOf, tasks as defaultRegistry, type TaskInput, type TaskRegistry, type TaskSlug } from './tasks.js';

export const DEFAULT_QUEUE = 'default';
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_NAME_LENGTH = 200;

export interface EnqueueOptions<S extends TaskSlug = TaskSlug> {
  task: S;
  input?: TaskInput<S>;
  organizationId: string;
  queue?: string;
  /** Not claimable before now + delayMs. */
  delayMs?: number;
  /** Attempts in all, the first run included. */
  maxAttempts?: number;
  /** Overrides the task's concurrency key; null removes it. */
  concurrencyKey?: string | null;
  /** Overrides the task's supersedes policy. */
  supersedes?: boolean;
  /** The trace the job continues (an outbox event's); the current span's when unset. */
  traceparent?: string | null;
}

export interface EnqueueDeps {
  db: Db | Tx;
  config: Config;
  registry?: TaskRegistry;
}

function isClient(db: Db | Tx): db is Db {
  return typeof (db as Db).$transaction === 'function';
}

function validate(options: EnqueueOptions): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const org = typeof options.organizationId === 'string' ? options.organizationId.trim() : '';
  if (!org) issues.push({ field: 'organizationId', message: 'is required: every job belongs to an organization' });
  else if (!UUID_RE.test(org)) issues.push({ field: 'organizationId', message: 'must be an organization id (UUID)' });
  if (typeof options.task !== 'string' || !options.task.trim() || options.task.length > MAX_NAME_LENGTH) issues.push({ field: 'task', message: 'must be a task slug' });
  if (options.queue !== undefined && (typeof options.queue !== 'string' || !options.queue.trim() || options.queue.length > MAX_NAME_LENGTH)) {
    issues.push({ field: 'queue', message: 'must be a non-empty queue name' });
  }
  if (options.delayMs !== undefined && !(Number.isFinite(options.delayMs) && options.delayMs >= 0))
    issues.push({ field: 'delayMs', message: 'must be a non-negative number of milliseconds' });
  if (options.maxAttempts !== undefined && !(Number.isInteger(options.maxAttempts) && options.maxAttempts >= 1))
    issues.push({ field: 'maxAttempts', message: 'must be a whole number, at least 1' });
  const input = options.input as unknown;
  if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input))) issues.push({ field: 'input', message: 'must be a JSON object' });
  return issues;
}

export async function enqueueJob<S extends TaskSlug>(deps: EnqueueDeps, options: EnqueueOptions<S>): Promise<Job> {
  const issues = validate(options as EnqueueOptions);
  if (issues.length) throw validationFailed(issues, 'invalid job');
  const registry = deps.registry ?? defaultRegistry;
  const task = registry.get(options.task);
  const input = (options.input ?? {}) as TaskInput<S>;
  let key = options.concurrencyKey !== undefined ? options.concurrencyKey : (task?.concurrency?.key(input as never) ?? null);
  if (key === '') key = null;
  const job = {
    organizationId: options.organizationId.trim().toLowerCase(),
    queue: options.queue ?? DEFAULT_QUEUE,
    taskSlug: options.task,
    input: withTraceparent(input, options.traceparent),
    maxAttempts: options.maxAttempts ?? 1 + Math.max(0, Math.floor(retryPolicyOf(task, deps.config).attempts)),
    delayMs: options.delayMs ?? 0,
    concurrencyKey: key ?? null,
    exclusive: task?.concurrency?.exclusive ?? true,
  };
  const supersedes = job.concurrencyKey !== null && (options.supersedes ?? task?.concurrency?.supersedes ?? false);
  try {
    if (!supersedes) return await insertJob(deps.db, job);
    const replace = async (tx: Tx) => {
      // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
      await dropSupersededJobs(tx, { organizationId: job.organizationId, taskSlug: job.taskSlug, concurrencyKey: job.concurrencyKey! });
      return insertJob(tx, job);
    };
    return isClient(deps.db) ? await deps.db.$transaction(replace) : await replace(deps.db);
  } catch (error) {
    if (sqlState(error) === '23503') throw validationFailed([{ field: 'organizationId', message: 'no such organization' }], 'invalid job');
    throw error;
  }
}

/**
 * Many immediate jobs in one INSERT (webhook fan-out). Each is validated like enqueueJob; delays
 * and supersedes are not taken here (they need per-job statements). Returns the job ids, which
 * callers may also choose (`id`) to reference the jobs in the same transaction.
 */
export async function enqueueMany(deps: EnqueueDeps, jobs: Array<EnqueueOptions & { id?: string }>): Promise<string[]> {
  if (jobs.length === 0) return [];
  const registry = deps.registry ?? defaultRegistry;
  const data = jobs.map((options, index) => {
    const issues = validate(options);
    if (options.delayMs || options.supersedes) issues.push({ field: 'delayMs', message: 'enqueueMany takes immediate jobs without supersedes; use enqueueJob' });
    if (issues.length)
      throw validationFailed(
        issues.map((i) => ({ ...i, field: `${index}.${i.field}` })),
        'invalid job',
      );
    const task = registry.get(options.task);
    const input = (options.input ?? {}) as Record<string, unknown>;
    const key = options.concurrencyKey !== undefined ? options.concurrencyKey : (task?.concurrency?.key(input as never) ?? null);
    return {
      id: options.id ?? randomUUID(),
      organizationId: options.organizationId.trim().toLowerCase(),
      queue: options.queue ?? DEFAULT_QUEUE,
      taskSlug: options.task,
      input: withTraceparent(input, options.traceparent) as object,
      maxAttempts: options.maxAttempts ?? 1 + Math.max(0, Math.floor(retryPolicyOf(task, deps.config).attempts)),
      concurrencyKey: key || null,
      exclusive: task?.concurrency?.exclusive ?? true,
    };
  });
  await deps.db.job.createMany({ data });
  return data.map((d) => d.id);
}
