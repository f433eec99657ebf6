// Table access for jobs: every state move is one SQL statement whose WHERE clause names the state
// it leaves, so two processes can never both make a move. The state table (spec "Background job
// status") and where each row lives:
//
//   pending    → processing  runner claims (wait_until passed or unset)          claimJobs
//   processing → succeeded   handler returned: output, completed_at               completeJobs
//   processing → pending     handler threw, attempts < max: wait_until = backoff  failJob
//   processing → failed      handler threw, attempts reached max: error           failJob
//   processing → pending     not the oldest exclusive job of its key in a batch:   claimJobs (never
//                            released, attempts untouched                         updated, row lock dropped)
//   pending    → failed      no registered task: "unknown task slug"              runner → failJob
//   failed     → pending     POST /admin/jobs/:id/retry                           retryFailedJob
// and the runner's own:
//   processing → pending|failed  heartbeat stopped (crashed worker)               reapStaleJobs
//   processing → pending     worker shutting down: released, attempt given back   releaseJobs
//
// A claim stamps a fresh lock_token on the job; every later move of that run matches on it, so
// a worker whose claim was taken back (reaped) cannot complete or fail the job any more.
import { sqlPool, type Db, type Tx } from '../db/client.js';
import { Prisma, type Job } from '../generated/prisma/client.js';
import type { JobOrderView } from '../config/schema.js';

type Sql = Db | Tx;

export const JOB_STATUSES = ['pending', 'processing', 'succeeded', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Longest error text kept on a job. */
const MAX_ERROR_LENGTH = 8000;

export type ProcessingOrder = { field: 'createdAt' | 'updatedAt' | 'attempts' | 'taskSlug'; direction: 'asc' | 'desc' } | ((a: JobOrderView, b: JobOrderView) => number);

const ORDER_COLUMNS = { createdAt: 'created_at', updatedAt: 'updated_at', attempts: 'attempts', taskSlug: 'task_slug' } as const;

interface JobRow {
  id: string;
  organization_id: string;
  queue: string;
  task_slug: string;
  status: string;
  input: unknown;
  output: unknown;
  error: string | null;
  attempts: number;
  max_attempts: number;
  wait_until: Date | null;
  concurrency_key: string | null;
  exclusive: boolean;
  processing_started_at: Date | null;
  heartbeat_at: Date | null;
  locked_by: string | null;
  lock_token: string | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export function rowToJob(row: JobRow): Job {
  return {
    id: row.id,
    organizationId: row.organization_id,
    queue: row.queue,
    taskSlug: row.task_slug,
    status: row.status,
    input: row.input as Job['input'],
    output: row.output as Job['output'],
    error: row.error,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    waitUntil: row.wait_until,
    concurrencyKey: row.concurrency_key,
    exclusive: row.exclusive,
    processingStartedAt: row.processing_started_at,
    heartbeatAt: row.heartbeat_at,
    lockedBy: row.locked_by,
    lockToken: row.lock_token,
    completedAt: row.completed_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function truncateError(message: string): string {
  return message.length > MAX_ERROR_LENGTH ? `${message.slice(0, MAX_ERROR_LENGTH - 1)}…` : message;
}

/** The PostgreSQL SQLSTATE behind a Prisma raw-query error (or a node-postgres one: see hotRows), if any. */
export function sqlState(error: unknown): string | undefined {
  const meta = (error as { meta?: { driverAdapterError?: { cause?: { originalCode?: string; code?: string } } } })?.meta;
  const prisma = meta?.driverAdapterError?.cause?.originalCode ?? meta?.driverAdapterError?.cause?.code;
  if (prisma) return prisma;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** Names of the prepared hot statements, by SQL text (one per claim shape). */
const statementNames = new Map<string, string>();

/**
 * Runs one of the worker's hot statements (claim, complete): straight on the pool under the
 * Prisma client when there is one, as a named prepared statement (parsed and planned once per
 * connection), since Prisma's own per-statement work was most of a worker's CPU per job; through
 * Prisma otherwise (a transaction, a client made elsewhere). Same SQL, same rows either way.
 */
async function hotRows<R>(db: Sql, name: string, query: Prisma.Sql): Promise<R[]> {
  const pool = sqlPool(db);
  if (!pool) return db.$queryRaw<R[]>(query);
  const text = query.text;
  let statement = statementNames.get(text);
  if (!statement) {
    statement = `commerce_${name}_${statementNames.size + 1}`;
    statementNames.set(text, statement);
  }
  return (await pool.query({ name: statement, text, values: query.values })).rows as R[];
}

export interface NewJob {
  organizationId: string;
  queue: string;
  taskSlug: string;
  input: unknown;
  maxAttempts: number;
  delayMs: number;
  concurrencyKey: string | null;
  exclusive: boolean;
}

export async function insertJob(db: Sql, job: NewJob): Promise<Job> {
  // wait_until from the database clock, the one the claim compares it with.
  const rows = await db.$queryRaw<JobRow[]>`
    insert into jobs (id, organization_id, queue, task_slug, input, max_attempts, wait_until, concurrency_key, exclusive, updated_at)
    values (gen_random_uuid(), ${job.organizationId}::uuid, ${job.queue}, ${job.taskSlug}, ${JSON.stringify(job.input)}::jsonb,
            ${job.maxAttempts}::int,
            case when ${job.delayMs}::float8 > 0 then now() + ${job.delayMs}::float8 * interval '1 millisecond' end,
            ${job.concurrencyKey}::text, ${job.exclusive}::boolean, now())
    returning *`;
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  return rowToJob(rows[0]!);
}

/**
 * Supersedes: drops the pending jobs of the same task, organization and key. Must run in the
 * transaction that inserts the replacement; the advisory lock serializes concurrent enqueues of
 * one key, so two of them cannot each delete the other's job and both stay pending. A job that a
 * runner is claiming right now is row-locked: the delete waits, then skips it if it was claimed.
 */
export async function dropSupersededJobs(tx: Tx, job: { organizationId: string; taskSlug: string; concurrencyKey: string }): Promise<number> {
  const lockName = `jobs/supersede:${job.organizationId}:${job.taskSlug}:${job.concurrencyKey}`;
  await tx.$queryRaw`select pg_advisory_xact_lock(hashtextextended(${lockName}, 0))::text`;
  return tx.$executeRaw`
    delete from jobs
    where organization_id = ${job.organizationId}::uuid and task_slug = ${job.taskSlug}
      and concurrency_key = ${job.concurrencyKey} and status = 'pending'`;
}

export interface ClaimOptions {
  queue: string;
  limit: number;
  workerId: string;
  /** Only this organization's jobs (the cron route); every organization's otherwise. */
  organizationId?: string;
  order?: ProcessingOrder;
}

/** What a claim returns of each job: what the runner and the handler need, nothing more (every column costs). */
export interface ClaimedJob {
  id: string;
  organizationId: string;
  queue: string;
  taskSlug: string;
  input: unknown;
  /** Counts this run. */
  attempts: number;
  maxAttempts: number;
  concurrencyKey: string | null;
  lockToken: string;
  createdAt: Date;
}

export interface ClaimResult {
  jobs: ClaimedJob[];
  /** Jobs the batch locked but left pending: exclusive jobs whose key was taken. */
  released: number;
}

/** How many ready jobs a comparator order looks at per slot it fills. */
const COMPARATOR_WINDOW = 5;

/**
 * Claims up to `limit` ready jobs of a queue in one statement:
 *   ready  — pending jobs whose wait_until passed, oldest first (or processingOrder), locked with
 *            FOR UPDATE SKIP LOCKED so concurrent runners take disjoint batches. An exclusive job
 *            is only considered when it is the oldest ready job of its key and the key is free
 *            (a cheap pre-filter that keeps one busy key from filling every batch);
 *   keyed  — for exclusive jobs, the oldest of each key in the batch inserts the key into
 *            job_key_locks ON CONFLICT DO NOTHING (DISTINCT ON sorts only the keyed rows). The primary key is what guarantees one running
 *            job per key, whatever the other runners read or are doing;
 *   update — moves to processing the keyless, non-exclusive and key-holding jobs (attempts + 1,
 *            a fresh lock_token), finding each by the ctid `ready` read: the row is locked by
 *            this statement, so it cannot have moved, and a TID scan costs nothing whatever
 *            the table's size or the planner's estimate. The others stay pending, attempts
 *            unchanged.
 */
export async function claimJobs(db: Sql, options: ClaimOptions): Promise<ClaimResult> {
  const limit = Math.max(0, Math.floor(options.limit));
  if (limit === 0) return { jobs: [], released: 0 };
  const orgFilter = options.organizationId ? Prisma.sql`and j.organization_id = ${options.organizationId}::uuid` : Prisma.empty;

  let idFilter = Prisma.empty;
  let orderBy = Prisma.sql`j.created_at asc, j.id asc`;
  let ids: string[] | null = null;
  if (typeof options.order === 'function') {
    ids = await orderedCandidates(db, options, options.order, limit * COMPARATOR_WINDOW);
    if (ids.length === 0) return { jobs: [], released: 0 };
    idFilter = Prisma.sql`and j.id = any(${ids}::uuid[])`;
    orderBy = Prisma.sql`array_position(${ids}::uuid[], j.id)`;
  } else if (options.order) {
    const column = Prisma.raw(`j.${ORDER_COLUMNS[options.order.field]} ${options.order.direction === 'desc' ? 'desc' : 'asc'}`);
    orderBy = Prisma.sql`${column}, j.created_at asc, j.id asc`;
  }

  const rows = await hotRows<ClaimedRow & { batch_size: number }>(
    db,
    'jobs_claim',
    Prisma.sql`
    with ready as (
      select j.ctid as row_id, j.id, j.organization_id, j.concurrency_key, j.exclusive, j.created_at
      from jobs j
      where j.queue = ${options.queue} and j.status = 'pending' and (j.wait_until is null or j.wait_until <= now())
        ${orgFilter} ${idFilter}
        and (j.concurrency_key is null or not j.exclusive or (
          not exists (select 1 from job_key_locks l
                      where l.organization_id = j.organization_id and l.concurrency_key = j.concurrency_key)
          and not exists (select 1 from jobs o
                          where o.organization_id = j.organization_id and o.concurrency_key = j.concurrency_key
                            and o.exclusive and o.status = 'pending' and (o.wait_until is null or o.wait_until <= now())
                            and (o.created_at, o.id) < (j.created_at, j.id))))
      order by ${orderBy}
      limit ${limit}::int
      for update of j skip locked
    ),
    batch as materialized (
      select r.*, gen_random_uuid() as token from ready r
    ),
    keyed as (
      insert into job_key_locks (organization_id, concurrency_key, job_id, lock_token)
      select distinct on (b.organization_id, b.concurrency_key) b.organization_id, b.concurrency_key, b.id, b.token from batch b
      where b.exclusive and b.concurrency_key is not null
      order by b.organization_id, b.concurrency_key, b.created_at, b.id
      on conflict do nothing
      returning job_id
    ),
    claimed as (
      update jobs j
      set status = 'processing', attempts = j.attempts + 1, processing_started_at = now(), heartbeat_at = now(),
          locked_by = ${options.workerId}, lock_token = b.token, updated_at = now()
      from batch b
      where j.ctid = b.row_id and (b.concurrency_key is null or not b.exclusive or b.id in (select job_id from keyed))
      returning j.id, j.organization_id, j.task_slug, j.input, j.attempts, j.max_attempts, j.concurrency_key, j.lock_token, j.created_at
    )
    select c.*, n.batch_size from (select count(*)::int as batch_size from batch) n left join claimed c on true`,
  );

  const batchSize = rows[0]?.batch_size ?? 0;
  const jobs = rows.filter((row) => row.id !== null).map((row) => claimedJob(row, options.queue));
  // RETURNING has no order: put the jobs back in claim order (handlers start in that order).
  const byAge = (a: ClaimedJob, b: ClaimedJob) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1);
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  if (ids) jobs.sort((a, b) => ids!.indexOf(a.id) - ids!.indexOf(b.id));
  else if (options.order && typeof options.order !== 'function') sortByField(jobs, options.order, byAge);
  else jobs.sort(byAge);
  return { jobs, released: batchSize - jobs.length };
}

interface ClaimedRow {
  id: string;
  organization_id: string;
  task_slug: string;
  input: unknown;
  attempts: number;
  max_attempts: number;
  concurrency_key: string | null;
  lock_token: string;
  created_at: Date;
}

function claimedJob(row: ClaimedRow, queue: string): ClaimedJob {
  return {
    id: row.id,
    organizationId: row.organization_id,
    queue,
    taskSlug: row.task_slug,
    input: row.input,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    concurrencyKey: row.concurrency_key,
    lockToken: row.lock_token,
    createdAt: row.created_at,
  };
}

function sortByField(jobs: ClaimedJob[], order: { field: string; direction: 'asc' | 'desc' }, tieBreak: (a: ClaimedJob, b: ClaimedJob) => number): void {
  // updated_at was just set by the claim, so it orders like created_at here.
  const key = (job: ClaimedJob): number | string => (order.field === 'taskSlug' ? job.taskSlug : order.field === 'attempts' ? job.attempts : job.createdAt.getTime());
  const sign = order.direction === 'desc' ? -1 : 1;
  jobs.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return (x < y ? -1 : x > y ? 1 : 0) * sign || tieBreak(a, b);
  });
}

/** A comparator order: read a window of ready jobs, sort it in JS, claim in that order. */
async function orderedCandidates(db: Sql, options: ClaimOptions, compare: (a: JobOrderView, b: JobOrderView) => number, window: number): Promise<string[]> {
  const orgFilter = options.organizationId ? Prisma.sql`and organization_id = ${options.organizationId}::uuid` : Prisma.empty;
  const rows = await db.$queryRaw<Array<{ id: string; task_slug: string; attempts: number; created_at: Date; updated_at: Date; input: unknown }>>`
    select id, task_slug, attempts, created_at, updated_at, input from jobs
    where queue = ${options.queue} and status = 'pending' and (wait_until is null or wait_until <= now()) ${orgFilter}
    order by created_at asc, id asc
    limit ${window}`;
  return rows
    .map((r) => ({ id: r.id, taskSlug: r.task_slug, attempts: r.attempts, createdAt: r.created_at, updatedAt: r.updated_at, input: r.input }))
    .sort(compare)
    .map((r) => r.id);
}

export interface Claim {
  id: string;
  lockToken: string;
}

/**
 * processing → succeeded for many claims in one statement (the runner groups completions that
 * finish together). Returns the ids whose claim was still held and so were recorded.
 */
export async function completeJobs(db: Sql, completions: Array<{ claim: Claim; output: unknown }>): Promise<Set<string>> {
  if (completions.length === 0) return new Set();
  const ids = completions.map((c) => c.claim.id);
  const tokens = completions.map((c) => c.claim.lockToken);
  const outputs = completions.map((c) => (c.output === undefined ? null : JSON.stringify(c.output)));
  const rows = await hotRows<{ id: string }>(
    db,
    'jobs_complete',
    Prisma.sql`
    with input as (
      select * from unnest(${ids}::uuid[], ${tokens}::uuid[], ${outputs}::jsonb[]) as t(id, token, output)
    ),
    done as (
      update jobs set status = 'succeeded', output = input.output, error = null, completed_at = now(), updated_at = now(),
                      heartbeat_at = null, lock_token = null
      from input
      where jobs.id = input.id and jobs.lock_token = input.token and jobs.status = 'processing'
      returning jobs.id
    ),
    freed as (delete from job_key_locks l using input where l.job_id = input.id and l.lock_token = input.token)
    select id from done`,
  );
  return new Set(rows.map((r) => r.id));
}

export interface FailOutcome {
  status: 'pending' | 'failed';
  waitUntil: Date | null;
}

/**
 * processing → pending (attempts left and `retry`) with wait_until = now + delayMs, or → failed.
 * Null when the claim was lost.
 */
export async function failJob(db: Sql, claim: Claim, error: string, options: { retry: boolean; delayMs: number }): Promise<FailOutcome | null> {
  const retry = options.retry;
  const delay = Math.max(0, options.delayMs);
  const rows = await db.$queryRaw<Array<{ status: 'pending' | 'failed'; wait_until: Date | null }>>`
    with failed as (
      update jobs
      set status = case when ${retry}::boolean and attempts < max_attempts then 'pending' else 'failed' end,
          wait_until = case when ${retry}::boolean and attempts < max_attempts then now() + ${delay}::float8 * interval '1 millisecond' else wait_until end,
          error = ${truncateError(error)}, updated_at = now(), heartbeat_at = null, lock_token = null
      where id = ${claim.id}::uuid and lock_token = ${claim.lockToken}::uuid and status = 'processing'
      returning status, wait_until
    ),
    freed as (delete from job_key_locks where job_id = ${claim.id}::uuid and lock_token = ${claim.lockToken}::uuid)
    select * from failed`;
  const row = rows[0];
  return row ? { status: row.status, waitUntil: row.wait_until } : null;
}

/** Refreshes heartbeat_at of live claims; returns the ids still held (the others were taken back). */
export async function heartbeatJobs(db: Sql, claims: Claim[]): Promise<Set<string>> {
  if (claims.length === 0) return new Set();
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    update jobs set heartbeat_at = now()
    from unnest(${claims.map((c) => c.id)}::uuid[], ${claims.map((c) => c.lockToken)}::uuid[]) as t(id, token)
    where jobs.id = t.id and jobs.lock_token = t.token and jobs.status = 'processing'
    returning jobs.id`;
  return new Set(rows.map((r) => r.id));
}

/** processing → pending without consuming the attempt: a stopping worker hands its jobs back. */
export async function releaseJobs(db: Sql, claims: Claim[]): Promise<number> {
  if (claims.length === 0) return 0;
  const ids = claims.map((c) => c.id);
  const tokens = claims.map((c) => c.lockToken);
  const rows = await db.$queryRaw<Array<{ n: number }>>`
    with released as (
      update jobs
      set status = 'pending', attempts = greatest(jobs.attempts - 1, 0), processing_started_at = null, heartbeat_at = null,
          lock_token = null, locked_by = null, updated_at = now()
      from unnest(${ids}::uuid[], ${tokens}::uuid[]) as t(id, token)
      where jobs.id = t.id and jobs.lock_token = t.token and jobs.status = 'processing'
      returning jobs.id
    ),
    freed as (
      delete from job_key_locks l using unnest(${ids}::uuid[], ${tokens}::uuid[]) as t(id, token)
      where l.job_id = t.id and l.lock_token = t.token
    )
    select count(*)::int as n from released`;
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  return rows[0]!.n;
}

/**
 * Takes back jobs whose heartbeat stopped for staleAfterMs: their worker crashed or was killed.
 * The run counted as an attempt (a job that kills its worker must not loop forever): back to
 * pending while attempts remain, failed otherwise. A slow job whose worker is alive keeps
 * heartbeating and is never touched.
 */
export async function reapStaleJobs(db: Sql, options: { staleAfterMs: number; organizationId?: string }): Promise<Job[]> {
  const orgFilter = options.organizationId ? Prisma.sql`and organization_id = ${options.organizationId}::uuid` : Prisma.empty;
  const rows = await db.$queryRaw<JobRow[]>`
    with stale as (
      select id from jobs
      where status = 'processing' and (heartbeat_at is null or heartbeat_at < now() - ${options.staleAfterMs}::float8 * interval '1 millisecond')
        ${orgFilter}
      for update skip locked
    ),
    freed as (delete from job_key_locks where job_id in (select id from stale)),
    reaped as (
      update jobs
      set status = case when jobs.attempts < jobs.max_attempts then 'pending' else 'failed' end,
          wait_until = case when jobs.attempts < jobs.max_attempts then now() else jobs.wait_until end,
          error = 'the worker stopped heartbeating during attempt ' || jobs.attempts || ' (it crashed or was killed)',
          heartbeat_at = null, lock_token = null, updated_at = now()
      from stale where jobs.id = stale.id
      returning jobs.*
    )
    select * from reaped`;
  return rows.map(rowToJob);
}

/** failed → pending, with a fresh attempt budget. Null when no failed job has that id in the organization. */
export async function retryFailedJob(db: Sql, organizationId: string, id: string): Promise<Job | null> {
  const rows = await db.$queryRaw<JobRow[]>`
    update jobs
    set status = 'pending', attempts = 0, error = null, output = null, wait_until = null, completed_at = null,
        processing_started_at = null, heartbeat_at = null, lock_token = null, locked_by = null, updated_at = now()
    where id = ${id}::uuid and organization_id = ${organizationId}::uuid and status = 'failed'
    returning *`;
  return rows[0] ? rowToJob(rows[0]) : null;
}
