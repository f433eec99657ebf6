// Webhook delivery end to end: an event is recorded in a write's transaction, GET /jobs/run
// dispatches it and runs the `webhooks/deliver` jobs, and a real HTTP receiver on 127.0.0.1
// verifies the Standard Webhooks signature. Retries on 5xx, 408, 429 and network errors only.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordEvent } from '../../src/events/outbox.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { startReceiver, verifyStandardWebhook, type Receiver } from './receiver.js';
import { verify } from '../../src/modules/webhooks/signing.js';

let t: TestApp;
let adminKey: string;
let org: string;
let receiver: Receiver;
const secrets = new Map<string, string>();

beforeAll(async () => {
  // Short backoff so retries are due within the test: waits 200 ms, 400 ms, ...
  t = await startTestApp({ webhooks: { retryDelayMs: 200, maxAttempts: 3, timeoutMs: 2000 } });
  adminKey = await t.apiKey('admin');
  org = (await t.app.services.organizations.defaultOrganization()).id;
  receiver = await startReceiver();
});
beforeEach(async () => {
  receiver.received.length = 0;
  // Each test starts with no endpoints and no queued deliveries.
  await t.app.db.webhookEndpoint.deleteMany({});
  await t.app.db.job.deleteMany({ where: { status: { in: ['pending', 'failed'] } } });
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

async function endpoint(path: string, events: string[] = ['catalog.create'], apiKey = adminKey): Promise<{ id: string; secret: string }> {
  const res = await t.request('/api/webhooks', { method: 'POST', apiKey, body: { url: receiver.url + path, events } });
  expect(res.status).toBe(201);
  receiver.secret(path, res.body.data.secret);
  secrets.set(path, res.body.data.secret);
  return res.body.data;
}

/** What a catalog write does: record the event inside its transaction. */
async function emit(
  type: 'catalog.create' | 'orders.create' = 'catalog.create',
  data: Record<string, unknown> = { entityId: 'ent-1', slug: 'blue-shirt' },
  organizationId = org,
): Promise<string> {
  return t.app.db.$transaction(async (tx) => {
    await recordEvent(tx, { organizationId, actorId: 'u-1', requestId: 'r-1' }, type, data as never);
    return (await tx.domainEvent.findFirstOrThrow({ where: { organizationId }, orderBy: { createdAt: 'desc' } })).id;
  });
}

async function run(apiKey = adminKey) {
  const res = await t.request('/api/jobs/run', { apiKey });
  expect(res.status).toBe(200);
  return res.body.data;
}

async function deliveriesOf(endpointId: string) {
  const res = await t.request(`/api/webhooks/deliveries?endpointId=${endpointId}&limit=100`, { apiKey: adminKey });
  expect(res.status).toBe(200);
  return res.body.data as Array<{ id: string; status: string; attempts: number; lastStatusCode: number | null; eventId: string }>;
}

async function attemptsOf(deliveryId: string) {
  const res = await t.request(`/api/webhooks/deliveries/${deliveryId}/attempts`, { apiKey: adminKey });
  expect(res.status).toBe(200);
  return res.body.data as Array<{ attempt: number; statusCode: number | null; durationMs: number; responseExcerpt: string | null; error: string | null }>;
}

/** Runs the cron route until the delivery is no longer pending (waiting for backoffs). */
async function runUntilSettled(deliveryId: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    await run();
    const res = await t.request(`/api/webhooks/deliveries/${deliveryId}`, { apiKey: adminKey });
    if (res.body.data.status !== 'pending') return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('delivery still pending');
}

describe('webhook delivery', () => {
  it('delivers a signed { id, type, createdAt, organizationId, data } body that the receiver verifies', async () => {
    const hook = await endpoint('/ok');
    const eventId = await emit('catalog.create', { entityId: 'ent-1', slug: 'blue-shirt' });
    const report = await run();
    expect(report.dispatchedEvents).toBeGreaterThanOrEqual(1);
    expect(report.jobs).toEqual([expect.objectContaining({ taskSlug: 'webhooks/deliver', status: 'succeeded' })]);

    expect(receiver.received).toHaveLength(1);
    const request = receiver.received[0]!;
    expect(request.verified).toBe(true);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.json).toEqual({ id: eventId, type: 'catalog.create', createdAt: expect.any(String), organizationId: org, data: { entityId: 'ent-1', slug: 'blue-shirt' } });
    expect(new Date(request.json.createdAt).toISOString()).toBe(request.json.createdAt);

    const [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1, lastStatusCode: 200, eventId });
    expect(request.headers['webhook-id']).toBe(delivery!.id);
    const attempts = await attemptsOf(delivery!.id);
    expect(attempts).toEqual([expect.objectContaining({ attempt: 1, statusCode: 200, responseExcerpt: 'ok', error: null })]);
    expect(attempts[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('a tampered body or a wrong secret does not verify (the receiver really checks)', async () => {
    await endpoint('/tamper');
    await emit();
    await run();
    const request = receiver.received.find((r) => r.path === '/tamper')!;
    const secret = secrets.get('/tamper')!;
    expect(verifyStandardWebhook(secret, request.headers, request.body)).toBe(true);
    expect(verifyStandardWebhook('whsec_' + Buffer.alloc(32, 1).toString('base64'), request.headers, request.body)).toBe(false);
    expect(verifyStandardWebhook(secret, request.headers, request.body.replace('blue', 'red'))).toBe(false);
    expect(verifyStandardWebhook(secret, { ...request.headers, 'webhook-id': 'msg_other' }, request.body)).toBe(false);
    // Our exported verify() agrees with the receiver's own implementation.
    const header = (name: string) => request.headers[name] as string;
    expect(
      verify(secret, { 'webhook-id': header('webhook-id'), 'webhook-timestamp': header('webhook-timestamp'), 'webhook-signature': header('webhook-signature') }, request.body),
    ).toBe(true);
  });

  it('sends one delivery per endpoint and matching event; * gets everything, other organizations nothing', async () => {
    const named = await endpoint('/named', ['orders.create']);
    const all = await endpoint('/all', ['*']);
    const other = await t.app.services.organizations.create({ slug: 'delivery-other', name: 'Other' });
    const otherKey = await t.apiKey('admin', { organizationId: other.id });
    const foreign = await endpoint('/foreign', ['*'], otherKey);
    await emit('orders.create', { orderId: 'o-1' });
    await emit('catalog.create', { entityId: 'e-2' });
    await run();
    expect(receiver.received.filter((r) => r.path === '/named').map((r) => r.json.type)).toEqual(['orders.create']);
    expect(
      receiver.received
        .filter((r) => r.path === '/all')
        .map((r) => r.json.type)
        .sort(),
    ).toEqual(['catalog.create', 'orders.create']);
    expect(receiver.received.filter((r) => r.path === '/foreign')).toEqual([]);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    expect(await deliveriesOf(named.id)).toHaveLength(1);
    expect(await deliveriesOf(all.id)).toHaveLength(2);
    // The other organization's event goes to its endpoint only, through its own cron call.
    await emit('orders.create', { orderId: 'o-9' }, other.id);
    await run(otherKey);
    expect(receiver.received.filter((r) => r.path === '/foreign').map((r) => r.json.organizationId)).toEqual([other.id]);
    expect(receiver.received.filter((r) => r.path === '/all')).toHaveLength(2);
    void foreign;
  });

  it('retries after a 500 with backoff, with the same webhook-id, until it succeeds', async () => {
    const hook = await endpoint('/flaky');
    receiver.script('/flaky', [
      { status: 500, body: 'database is down' },
      { status: 200, body: 'ok now' },
    ]);
    await emit();
    const first = await run();
    expect(first.jobs).toEqual([expect.objectContaining({ taskSlug: 'webhooks/deliver', status: 'pending', error: expect.stringMatching(/HTTP 500/) })]);
    const [pending] = await deliveriesOf(hook.id);
    expect(pending).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 500 });
    const job = await t.app.db.job.findFirstOrThrow({ where: { taskSlug: 'webhooks/deliver', input: { equals: { deliveryId: pending!.id } } } });
    expect(job.waitUntil!.getTime() - job.updatedAt.getTime()).toBe(200); // exponential: delay·2^0 after attempt 1

    await runUntilSettled(pending!.id);
    const [done] = await deliveriesOf(hook.id);
    expect(done).toMatchObject({ status: 'succeeded', attempts: 2, lastStatusCode: 200 });
    const requests = receiver.received.filter((r) => r.path === '/flaky');
    expect(requests).toHaveLength(2);
    expect(requests.every((r) => r.verified)).toBe(true);
    expect(new Set(requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([done!.id]));
    expect((await attemptsOf(done!.id)).map((a) => [a.attempt, a.statusCode, a.responseExcerpt])).toEqual([
      [1, 500, 'database is down'],
      [2, 200, 'ok now'],
    ]);
  });

  it('does not retry after a 400: the delivery and its job fail at once', async () => {
    const hook = await endpoint('/bad');
    receiver.script('/bad', [{ status: 400, body: '{"error":"unknown field"}' }]);
    await emit();
    const report = await run();
    expect(report.jobs).toEqual([expect.objectContaining({ taskSlug: 'webhooks/deliver', status: 'failed', error: expect.stringMatching(/HTTP 400/) })]);
    const [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: 400 });
    await run();
    expect(receiver.received.filter((r) => r.path === '/bad')).toHaveLength(1);
    expect((await attemptsOf(delivery!.id))[0]).toMatchObject({ statusCode: 400, responseExcerpt: '{"error":"unknown field"}' });
    const failedJobs = await t.request('/api/admin/jobs/failed', { apiKey: adminKey });
    expect(failedJobs.body.data.some((j: { input: { deliveryId: string } }) => j.input.deliveryId === delivery!.id)).toBe(true);
  });

  it.each([
    [408, {}],
    [429, { 'retry-after': '0' }],
    [503, {}],
  ])('retries after a %i', async (status, headers) => {
    const path = `/status-${status}`;
    const hook = await endpoint(path);
    receiver.script(path, [{ status, headers }, { status: 204 }]);
    await emit();
    await run();
    const [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({ status: 'pending', lastStatusCode: status });
    await runUntilSettled(delivery!.id);
    expect((await deliveriesOf(hook.id))[0]).toMatchObject({ status: 'succeeded', attempts: 2, lastStatusCode: 204 });
  });

  it('a 429 Retry-After longer than the backoff sets the wait', async () => {
    const hook = await endpoint('/rate-limited');
    receiver.script('/rate-limited', [{ status: 429, headers: { 'retry-after': '120' } }]);
    await emit();
    await run();
    const [delivery] = await deliveriesOf(hook.id);
    const job = await t.app.db.job.findFirstOrThrow({ where: { input: { equals: { deliveryId: delivery!.id } } } });
    expect(job.waitUntil!.getTime() - job.updatedAt.getTime()).toBe(120_000);
  });

  it('retries network errors, and fails after max attempts', async () => {
    // A port nothing listens on: connection refused every time.
    const closed = await startReceiver();
    const deadUrl = closed.url + '/nobody';
    await closed.close();
    const res = await t.request('/api/webhooks', { method: 'POST', apiKey: adminKey, body: { url: deadUrl, events: ['catalog.create'] } });
    await emit();
    await run();
    const [delivery] = await deliveriesOf(res.body.data.id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: null });
    await runUntilSettled(delivery!.id);
    const attempts = await attemptsOf(delivery!.id);
    expect(attempts).toHaveLength(3); // webhooks.maxAttempts
    expect(attempts.every((a) => a.statusCode === null && /ECONNREFUSED|connect/i.test(a.error ?? ''))).toBe(true);
    expect((await deliveriesOf(res.body.data.id))[0]).toMatchObject({ status: 'failed', attempts: 3 });
  });

  it('redelivers a failed delivery with the same webhook-id; a pending one is 409', async () => {
    const hook = await endpoint('/second-chance');
    receiver.script('/second-chance', [
      { status: 410, body: 'gone' },
      { status: 200, body: 'welcome back' },
    ]);
    await emit();
    await run();
    const [failed] = await deliveriesOf(hook.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });

    const res = await t.request(`/api/webhooks/deliveries/${failed!.id}/redeliver`, { method: 'POST', apiKey: adminKey });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: failed!.id, status: 'pending' });
    const again = await t.request(`/api/webhooks/deliveries/${failed!.id}/redeliver`, { method: 'POST', apiKey: adminKey });
    expect(again.status).toBe(409);

    await run();
    const requests = receiver.received.filter((r) => r.path === '/second-chance');
    expect(requests.map((r) => r.headers['webhook-id'])).toEqual([failed!.id, failed!.id]);
    expect(requests.every((r) => r.verified)).toBe(true);
    expect((await deliveriesOf(hook.id))[0]).toMatchObject({ status: 'succeeded', attempts: 2, lastStatusCode: 200 });
    expect((await attemptsOf(failed!.id)).map((a) => a.statusCode)).toEqual([410, 200]);
  });

  it('deliveries are scoped to the organization and filterable', async () => {
    const other = await t.app.services.organizations.create({ slug: 'delivery-other-2', name: 'Other 2' });
    const otherKey = await t.apiKey('admin', { organizationId: other.id });
    await endpoint('/scoped-ok');
    await endpoint('/scoped-bad');
    receiver.script('/scoped-bad', [{ status: 422 }]);
    await emit();
    await run();
    const list = await t.request('/api/webhooks/deliveries?status=failed', { apiKey: adminKey });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ status: 'failed', lastStatusCode: 422 });
    const succeeded = await t.request('/api/webhooks/deliveries?status=succeeded&eventType=catalog.create', { apiKey: adminKey });
    expect(succeeded.body.data).toEqual([expect.objectContaining({ status: 'succeeded', eventType: 'catalog.create' })]);
    expect((await t.request('/api/webhooks/deliveries?status=lost', { apiKey: adminKey })).status).toBe(422);
    const id = list.body.data[0].id;
    expect((await t.request(`/api/webhooks/deliveries/${id}`, { apiKey: otherKey })).status).toBe(404);
    expect((await t.request(`/api/webhooks/deliveries/${id}/attempts`, { apiKey: otherKey })).status).toBe(404);
    expect((await t.request(`/api/webhooks/deliveries/${id}/redeliver`, { method: 'POST', apiKey: otherKey })).status).toBe(404);
    expect((await t.request('/api/webhooks/deliveries', { apiKey: otherKey })).body.data).toEqual([]);
    expect((await t.request('/api/webhooks/deliveries')).status).toBe(401);
  });

  it('a job queued for a deleted endpoint finishes without sending', async () => {
    const hook = await endpoint('/deleted-meanwhile');
    await emit();
    // Dispatch only (the route would deliver right away): the job is queued, then the endpoint goes.
    const { dispatchEvents } = await import('../../src/events/dispatcher.js');
    await dispatchEvents({ db: t.app.db, config: t.app.config, logger: t.app.logger, services: t.app.services });
    expect((await t.request(`/api/webhooks/${hook.id}`, { method: 'DELETE', apiKey: adminKey })).status).toBe(200);
    const report = await run();
    expect(report.jobs).toEqual([expect.objectContaining({ taskSlug: 'webhooks/deliver', status: 'succeeded' })]);
    expect(receiver.received.filter((r) => r.path === '/deleted-meanwhile')).toEqual([]);
  });
});
