// A job whose outcome cannot be written because PostgreSQL is restarting: the worker writes it
// once the database is back (within seconds), not the reaper staleAfterMs (here 60 s) later.
// Two ways it happens: a webhook delivery whose receiver answers while the database is down (the
// handler's own write fails, so the failure is recorded and the delivery retried), and a job that
// succeeds while the database is down (the success is recorded). The worker runs in the test
// process on a PostgreSQL cluster of the test's own, which the test stops and starts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueMany } from '../../src/jobs/enqueue.js';
import { defineTask } from '../../src/jobs/tasks.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import {
  cleanup,
  eventually,
  logLines,
  migratedDatabase,
  operator,
  ownPostgres,
  request,
  sleep,
  startInProcess,
  type InProcess,
  type Operator,
  type OwnPostgres,
} from './support.js';

/** The database stays down this long while the job's outcome waits to be written. */
const OUTAGE_MS = 2000;
/** "Within seconds": far below staleAfterMs, the reaper's earliest turn. */
const RECOVERY_LIMIT_MS = 8000;

let gate: () => void = () => undefined;
let gatedStarted = 0;
defineTask({
  slug: 'test/finishes-during-outage',
  async handler() {
    gatedStarted += 1;
    await new Promise<void>((resolve) => (gate = resolve));
    return { finished: true };
  },
});

let pgServer: OwnPostgres;
let op: Operator;
let api: InProcess;
let worker: InProcess;
let receiver: Receiver;
let adminKey: string;

beforeAll(async () => {
  pgServer = await ownPostgres();
  const databaseUrl = await migratedDatabase(pgServer.adminUrl, 'commerce_outcome');
  op = await operator(databaseUrl);
  adminKey = await op.apiKey('admin');
  receiver = await startReceiver({ delayMs: 1000 });
  const config = {
    jobs: { pollIntervalMs: 300, heartbeatIntervalMs: 500, staleAfterMs: 60_000, reapIntervalMs: 1000, shutdownGraceMs: 500 },
    webhooks: { retryDelayMs: 200, maxAttempts: 5, timeoutMs: 5000 },
  };
  [api, worker] = await Promise.all([startInProcess('server', { databaseUrl, config }), startInProcess('worker', { databaseUrl, config })]);
}, 300_000);

afterAll(async () => {
  gate();
  await receiver?.close();
  await op?.close().catch(() => undefined);
  await cleanup();
});

/** Stops the cluster, waits OUTAGE_MS (meanwhile `during` runs), starts it; returns when it is back. */
async function outage(during: () => void | Promise<void>): Promise<number> {
  await pgServer.stop();
  await during();
  await sleep(OUTAGE_MS);
  await pgServer.start();
  return Date.now();
}

function reaped(): unknown[] {
  return logLines(worker).filter((l) => l.msg === 'reaped jobs of stopped workers');
}

describe('an outcome the worker could not write during a PostgreSQL restart', () => {
  it('a webhook delivery answered while the database was down is retried and delivered within seconds of its return', async () => {
    const endpoint = await request(api.url, '/api/webhooks', { apiKey: adminKey, body: { url: `${receiver.url}/hook`, events: ['catalog.create'] } });
    expect(endpoint.status, endpoint.text).toBe(201);
    const created = await request(api.url, '/api/catalog/entities', { apiKey: adminKey, body: { type: 'product', slug: 'outcome-webhook', status: 'active' } });
    expect(created.status, created.text).toBe(201);
    // The receiver holds its answer for 1 s: the database stops while the delivery is in flight.
    await eventually(async () => receiver.received.length >= 1, 30_000, 20, 'the first delivery attempt');
    const back = await outage(() => undefined);
    const job = await eventually(
      async () => {
        const rows = await op.runtime.db.webhookDelivery.findMany({ where: { endpointId: endpoint.body.data.id } });
        if (rows.length !== 1 || rows[0]!.status !== 'succeeded') return null;
        // The handler marks the delivery; the runner records the job just after.
        const job = await op.runtime.db.job.findUniqueOrThrow({ where: { id: rows[0]!.jobId! } });
        return job.status === 'succeeded' ? job : null;
      },
      RECOVERY_LIMIT_MS,
      100,
      'the delivery and its job to succeed after the database came back',
    );
    console.info(`webhook: succeeded ${Date.now() - back} ms after the database came back; job attempts ${job.attempts}, receiver got ${receiver.received.length}`);
    expect(job.status).toBe('succeeded');
    // At least once: the answer given during the outage was not recorded, so it was sent again.
    expect(receiver.received.length).toBeGreaterThanOrEqual(2);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(reaped()).toEqual([]);
  }, 60_000);

  it('a job that succeeds while the database is down is recorded succeeded within seconds of its return', async () => {
    const [jobId] = await enqueueMany({ db: op.runtime.db, config: op.runtime.config }, [{ task: 'test/finishes-during-outage', organizationId: op.organizationId }]);
    await eventually(async () => gatedStarted >= 1, 30_000, 20, 'the job to start');
    const back = await outage(() => gate());
    const job = await eventually(
      async () => {
        const row = await op.runtime.db.job.findUnique({ where: { id: jobId! } });
        return row?.status === 'succeeded' ? row : null;
      },
      RECOVERY_LIMIT_MS,
      100,
      'the job to be recorded succeeded after the database came back',
    );
    console.info(`job: recorded succeeded ${Date.now() - back} ms after the database came back`);
    expect(job.attempts).toBe(1);
    expect(job.output).toEqual({ finished: true });
    expect(gatedStarted).toBe(1);
    expect(reaped()).toEqual([]);
  }, 60_000);
});
