// Traces end to end against a local OTLP/HTTP receiver started here: one checkout gives linked
// spans HTTP → GraphQL → SQL, and once the jobs run, the webhook delivery job and its outbound
// POST are in the same trace, the receiver getting its traceparent. The OpenTelemetry SDK is
// process-global: this file enables it for its own process (vitest runs each file in a fork).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracing, type Tracing } from '../../src/observability/tracing.js';
import { inSpan } from '../../src/observability/trace-context.js';
import { taxJarProvider } from '../../src/modules/tax/taxjar.js';
import { StripePaymentProvider } from '../../src/modules/payments/stripe.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { ORDER_TEST_CONFIG, checkout, guestCart, openStore, product, type Store } from '../orders/helpers.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';

interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}

/** An OTLP/HTTP trace receiver: POST /v1/traces with JSON bodies (the http exporter's encoding). */
async function startCollector(): Promise<{ url: string; spans: Span[]; contentTypes: Set<string>; close(): Promise<void> }> {
  const spans: Span[] = [];
  const contentTypes = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      contentTypes.add(String(req.headers['content-type']));
      if (req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Span[] }> }> };
        for (const resource of body.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    contentTypes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let collector: Awaited<ReturnType<typeof startCollector>>;
let tracing: Tracing;
let t: TestApp;
let store: Store;
let receiver: Receiver;

beforeAll(async () => {
  collector = await startCollector();
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.url;
  process.env.OTEL_TRACES_SAMPLER = 'parentbased_always_on';
  tracing = (await startTracing({ serviceName: 'commerce-test' }))!;
  expect(tracing).toBeTruthy();
  // The SDK is loaded now (the metrics test checks it is not when tracing is off).
  expect(Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('/@opentelemetry/sdk-trace-base/'))).toBe(true);
  t = await startTestApp(ORDER_TEST_CONFIG);
  store = await openStore(t);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
  await tracing?.shutdown();
  await collector?.close();
});

function childrenOf(spans: Span[], parent: Span): Span[] {
  return spans.filter((s) => s.parentSpanId === parent.spanId);
}

function descendantsOf(spans: Span[], root: Span): Span[] {
  const out: Span[] = [];
  const queue = [root];
  while (queue.length) {
    const next = childrenOf(spans, queue.shift()!);
    out.push(...next);
    queue.push(...next);
  }
  return out;
}

describe('traces', () => {
  it('a checkout is one trace: HTTP → GraphQL → SQL, then job → webhook delivery carrying traceparent', async () => {
    const hook = await t.request('/api/webhooks', { method: 'POST', apiKey: store.admin, body: { url: `${receiver.url}/orders`, events: ['orders.create'] } });
    expect(hook.status, hook.text).toBe(201);
    const entity = await product(store, { price: 1200, stock: 5 });
    const cart = await guestCart(store, [{ entityId: entity, quantity: 1 }]);
    const res = await checkout(store, cart);
    expect(res.status, res.text).toBe(201);
    const run = await t.request('/api/jobs/run', { apiKey: store.admin });
    expect(run.status, run.text).toBe(200);
    expect(receiver.received.length).toBe(1);
    await tracing.flush();

    const spans = collector.spans;
    expect([...collector.contentTypes]).toContain('application/json');
    const request = spans.find((s) => s.name === 'POST /api/checkout');
    expect(request, spans.map((s) => s.name).join(', ')).toBeTruthy();
    expect(request!.kind).toBe(2); // SERVER
    const trace = spans.filter((s) => s.traceId === request!.traceId);

    // HTTP → GraphQL execute → SQL (Prisma's spans, the statements among them).
    const execute = childrenOf(trace, request!).find((s) => s.name.startsWith('graphql.execute mutation'));
    expect(execute, trace.map((s) => s.name).join(', ')).toBeTruthy();
    const sql = descendantsOf(trace, execute!).filter((s) => s.name.startsWith('prisma:'));
    expect(sql.length).toBeGreaterThan(0);
    expect(
      sql.some(
        (s) => s.name === 'prisma:engine:db_query' || s.name === 'prisma:client:db_query' || s.attributes.some((a) => a.key === 'db.query.text' || a.key === 'db.statement'),
      ),
    ).toBe(true);

    // After the worker ran: the delivery job and its POST, in the checkout's trace.
    const job = trace.find((s) => s.name === 'job webhooks/deliver');
    expect(job, spans.map((s) => s.name).join(', ')).toBeTruthy();
    const post = childrenOf(trace, job!).find((s) => s.name.startsWith('webhook POST'));
    expect(post).toBeTruthy();
    expect(post!.kind).toBe(3); // CLIENT
    const traceparent = String(receiver.received[0]!.headers.traceparent);
    expect(traceparent).toMatch(new RegExp(`^00-${request!.traceId}-${post!.spanId}-0[01]$`));
  });

  it('statements sent straight to node-postgres (the product page read) have SQL spans under the request', async () => {
    const entity = await product(store, { price: 900, stock: 1 });
    const res = await t.request(`/api/catalog/entities/${entity}`, { apiKey: store.admin });
    expect(res.status, res.text).toBe(200);
    await tracing.flush();
    const request = collector.spans.find((s) => s.name === 'GET /api/catalog/entities/:idOrSlug' || (s.name.startsWith('GET /api/catalog/entities/') && s.kind === 2));
    expect(request, collector.spans.map((s) => s.name).join(', ')).toBeTruthy();
    const pgSpans = descendantsOf(
      collector.spans.filter((s) => s.traceId === request!.traceId),
      request!,
    ).filter((s) => s.name.startsWith('pg.query'));
    expect(pgSpans.length).toBeGreaterThan(0);
    expect(pgSpans.every((s) => s.kind === 3 && s.attributes.some((a) => a.key === 'db.statement'))).toBe(true);
  });

  it('a call to a provider (TaxJar) is a client span carrying traceparent', async () => {
    receiver.script('/v2/taxes', [
      {
        status: 200,
        body: JSON.stringify({
          tax: { amount_to_collect: 0.8, breakdown: { line_items: [{ id: '0', tax_collectable: 0.8, combined_tax_rate: 0.08 }], shipping: { tax_collectable: 0 } } },
        }),
        headers: { 'content-type': 'application/json' },
      },
    ]);
    const provider = taxJarProvider({ apiUrl: `${receiver.url}/v2`, apiToken: 'tok', timeoutMs: 5_000 });
    const result = await inSpan('provider probe', {}, () =>
      provider.calculate!({
        currency: 'USD',
        shipFrom: { countryCode: 'US', region: 'US-CA', postalCode: '94105' },
        shipTo: { countryCode: 'US', region: 'US-CA', postalCode: '90210' },
        shipping: 0,
        lines: [
          {
            index: 0,
            entityId: '00000000-0000-4000-8000-000000000001',
            sku: 'P-1',
            quantity: 1,
            unitPrice: 1000,
            discount: 0,
            taxClassId: null,
            rateBps: 0,
            destination: { countryCode: 'US', region: 'US-CA', postalCode: '90210' },
          },
        ],
      }),
    );
    expect(result.lines[0]!.taxTotal).toBe(80);
    await tracing.flush();
    const call = collector.spans.find((s) => s.name === `tax taxjar POST ${new URL(receiver.url).host}`);
    expect(call, collector.spans.map((s) => s.name).join(', ')).toBeTruthy();
    expect(call!.kind).toBe(3); // CLIENT
    const probe = collector.spans.find((s) => s.name === 'provider probe')!;
    expect(call!.parentSpanId).toBe(probe.spanId);
    const sent = receiver.received.filter((r) => r.path === '/v2/taxes').at(-1)!;
    expect(String(sent.headers.traceparent)).toMatch(new RegExp(`^00-${call!.traceId}-${call!.spanId}-0[01]$`));
  });

  it('a call to Stripe through its SDK is a client span carrying traceparent', async () => {
    receiver.script('/v1/payment_intents', [
      {
        status: 200,
        body: JSON.stringify({ id: 'pi_traced', object: 'payment_intent', status: 'succeeded', amount: 1200, amount_received: 1200, currency: 'usd', latest_charge: 'ch_1' }),
        headers: { 'content-type': 'application/json', 'request-id': 'req_1' },
      },
    ]);
    const provider = new StripePaymentProvider('sk_test_traced', 'whsec_traced', { timeoutMs: 5_000, apiBase: receiver.url });
    const paid = await inSpan('stripe probe', {}, () =>
      provider.authorize({
        paymentId: '00000000-0000-4000-8000-000000000001',
        orderId: '00000000-0000-4000-8000-000000000002',
        organizationId: '00000000-0000-4000-8000-000000000003',
        amount: 1200,
        currency: 'USD',
        method: { id: 'pm_card_visa' },
        idempotencyKey: 'traced-1',
        capture: true,
        returnUrl: 'https://shop.example/return',
      }),
    );
    expect(paid).toMatchObject({ status: 'captured', providerReference: 'pi_traced' });
    await tracing.flush();
    const call = collector.spans.find((s) => s.name === `payments stripe POST ${new URL(receiver.url).host}`);
    expect(call, collector.spans.map((s) => s.name).join(', ')).toBeTruthy();
    expect(call!.parentSpanId).toBe(collector.spans.find((s) => s.name === 'stripe probe')!.spanId);
    const sent = receiver.received.filter((r) => r.path === '/v1/payment_intents').at(-1)!;
    expect(String(sent.headers.traceparent)).toMatch(new RegExp(`^00-${call!.traceId}-${call!.spanId}-0[01]$`));
  });

  it('a /graphql request has parse, validate and execute spans under its HTTP span', async () => {
    const res = await t.graphql('query TraceProbe { __typename }', undefined, { apiKey: store.admin });
    expect(res.status).toBe(200);
    await tracing.flush();
    const request = collector.spans.filter((s) => s.name === 'POST /graphql').at(-1)!;
    const names = childrenOf(collector.spans, request).map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['graphql.parse', 'graphql.validate', 'graphql.execute query TraceProbe']));
  });

  it('continues an incoming traceparent', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const res = await t.request('/api/health', { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    expect(res.status).toBe(200);
    await tracing.flush();
    const span = collector.spans.find((s) => s.traceId === traceId);
    expect(span?.name).toBe('GET /api/health');
    expect(span?.parentSpanId).toBe('00f067aa0ba902b7');
  });
});
