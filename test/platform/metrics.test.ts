// GET /metrics: where it answers (API port openly in test, behind METRICS_TOKEN, on its own
// METRICS_PORT listener), the series it exposes, bounded labels under a flood of distinct paths,
// ids and operation names, and the Grafana dashboard's queries naming only series it serves.
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { MAX_OPERATION_NAMES } from '../../src/observability/metrics.js';
import { metricsOnApiPort } from '../../src/observability/metrics-http.js';
import { ORDER_TEST_CONFIG, checkout, guestCart, openStore, product } from '../orders/helpers.js';
import { startReceiver } from '../webhooks/receiver.js';

const TOKEN = 'metrics-token-0123456789abcdef';
let t: TestApp;
let adminKey: string;

beforeAll(async () => {
  t = await startTestApp(ORDER_TEST_CONFIG);
  adminKey = await t.apiKey('admin');
});
afterAll(async () => {
  await t?.close();
});

async function scrape(url: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; type: string | null }> {
  const response = await fetch(`${url}/metrics`, { headers });
  return { status: response.status, text: await response.text(), type: response.headers.get('content-type') };
}

/** Series lines (not comments) of the app's own metrics; process/runtime metrics left out. */
function seriesOf(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#') && !line.startsWith('commerce_process_') && !line.startsWith('commerce_nodejs_'))
    .map((line) => line.slice(0, line.lastIndexOf(' ')));
}

function labelValues(text: string, metric: string, label: string): Set<string> {
  const values = new Set<string>();
  const re = new RegExp(`^${metric}\\{[^}]*${label}="([^"]*)"`, 'gm');
  for (const match of text.matchAll(re)) values.add(match[1]!);
  return values;
}

describe('GET /metrics', () => {
  it('serves Prometheus text with every documented series (test env, no token: open on the API port)', async () => {
    await t.request('/api/health');
    await t.graphql('query Shop { __typename }');
    const { status, text, type } = await scrape(t.url);
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const name of [
      'commerce_http_request_duration_seconds_bucket',
      'commerce_http_request_sql_statements_bucket',
      'commerce_graphql_operation_duration_seconds_bucket',
      'commerce_db_pool_connections',
      'commerce_graphql_execution_slots',
      'commerce_jobs',
      'commerce_jobs_oldest_pending_age_seconds',
      'commerce_outbox_lag_seconds',
      'commerce_process_cpu_user_seconds_total',
    ]) {
      expect(text, name).toContain(`\n${name}`);
    }
    expect(text).toMatch(/commerce_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status_class="2xx"\} \d+/);
    expect(text).toMatch(/commerce_graphql_operation_duration_seconds_count\{operation="Shop",error_code="none"\} 1/);
    // Documents refused before execution count too, under the code their answer carries.
    expect((await t.graphql('query Broken { __typename')).body.errors![0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    expect((await t.graphql('query NoSuchField { noSuchField }')).body.errors![0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const after = (await scrape(t.url)).text;
    expect(after).toMatch(/commerce_graphql_operation_duration_seconds_count\{operation="anonymous",error_code="GRAPHQL_PARSE_FAILED"\} [1-9]/);
    expect(after).toMatch(/commerce_graphql_operation_duration_seconds_count\{operation="NoSuchField",error_code="GRAPHQL_VALIDATION_FAILED"\} 1/);
    expect(text).toMatch(/commerce_db_pool_connections\{state="in_use"\} \d+/);
    expect(text).toMatch(/commerce_graphql_execution_slots\{state="waiting"\} 0/);
    // Help and type lines for counters that have not counted yet are still there.
    for (const name of ['commerce_rate_limit_refusals_total', 'commerce_webhook_deliveries_total', 'commerce_checkouts_total', 'commerce_job_duration_seconds']) {
      expect(text).toContain(`# TYPE ${name}`);
    }
  });

  it('counts checkouts by outcome, and the webhook deliveries and jobs they cause', async () => {
    const receiver = await startReceiver();
    try {
      const store = await openStore(t);
      const hook = await t.request('/api/webhooks', { method: 'POST', apiKey: store.admin, body: { url: `${receiver.url}/orders`, events: ['orders.create'] } });
      expect(hook.status, hook.text).toBe(201);
      const entity = await product(store, { price: 900, stock: 3 });
      expect((await checkout(store, await guestCart(store, [{ entityId: entity, quantity: 1 }]))).status).toBe(201);
      expect((await checkout(store, await guestCart(store, []))).status).toBe(422); // an empty cart: CHECKOUT_FAILED
      expect((await t.request('/api/jobs/run', { apiKey: store.admin })).status).toBe(200);
      expect(receiver.received).toHaveLength(1);
      const { text } = await scrape(t.url);
      expect(text).toMatch(/commerce_checkouts_total\{outcome="created"\} 1\n/);
      expect(text).toMatch(/commerce_checkouts_total\{outcome="refused"\} 1\n/);
      expect(text).toMatch(/commerce_webhook_deliveries_total\{outcome="succeeded"\} 1\n/);
      expect(text).toMatch(/commerce_job_duration_seconds_count\{task="webhooks\/deliver",outcome="succeeded"\} 1\n/);
      expect(text).toMatch(/commerce_outbox_lag_seconds 0\n/);
    } finally {
      await receiver.close();
    }
  });

  it('counts SQL statements per request by route template', async () => {
    const res = await t.request(`/api/orders/${randomUUID()}`, { apiKey: adminKey });
    expect(res.status).toBe(404);
    const { text } = await scrape(t.url);
    const count = /commerce_http_request_sql_statements_count\{route="\/api\/orders\/:id"\} (\d+)/.exec(text);
    const sum = /commerce_http_request_sql_statements_sum\{route="\/api\/orders\/:id"\} (\d+)/.exec(text);
    expect(Number(count?.[1])).toBeGreaterThanOrEqual(1);
    // The API key's check and the order lookup went to the database at least.
    expect(Number(sum?.[1])).toBeGreaterThanOrEqual(1);
  });

  it('counts the statements of a sample of requests: each route’s first, then one in a hundred', async () => {
    // Counting holds Node's promise hooks on for every concurrent request (src/async-storage.ts).
    for (let i = 0; i < 5; i += 1) expect((await t.request(`/api/returns/${randomUUID()}`, { apiKey: adminKey })).status).toBe(404);
    const { text } = await scrape(t.url);
    expect(text).toMatch(/commerce_http_request_duration_seconds_count\{method="GET",route="\/api\/returns\/:id",status_class="4xx"\} 5\n/);
    expect(text).toMatch(/commerce_http_request_sql_statements_count\{route="\/api\/returns\/:id"\} 1\n/);
  });

  it('keeps the series count constant under 1,000 distinct paths and ids', async () => {
    const round = async (n: number) => {
      for (let i = 0; i < n; i += 1) {
        const id = randomUUID();
        await Promise.all([
          t.request(`/api/orders/${id}`, { apiKey: adminKey }),
          t.request(`/api/customers/${id}`, { apiKey: adminKey }),
          t.request(`/api/no-such-route/${id}`, { apiKey: adminKey }),
          fetch(`${t.url}/no/such/${id}?q=${i}`),
          t.graphql(`query Order($id: String!) { order(id: $id) { id } }`, { id }, { apiKey: adminKey }),
        ]);
      }
    };
    await round(3); // every label combination the flood produces exists now
    const before = seriesOf((await scrape(t.url)).text);
    await round(200); // 1,000 requests, each path or id distinct
    const after = seriesOf((await scrape(t.url)).text);
    expect(after.length).toBe(before.length);
    expect(new Set(after)).toEqual(new Set(before));
    const routes = labelValues((await scrape(t.url)).text, 'commerce_http_request_duration_seconds_count', 'route');
    expect(routes).toContain('unmatched');
    expect(routes).toContain('/api/customers/:id');
    for (const route of routes) expect(route).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}/);
  });

  it('caps distinct GraphQL operation names (later ones count as "other")', async () => {
    for (let i = 0; i < MAX_OPERATION_NAMES + 50; i += 10) {
      await Promise.all(Array.from({ length: 10 }, (_, j) => t.graphql(`query Flood${i + j} { __typename }`, undefined, { apiKey: adminKey })));
    }
    await t.graphql('{ __typename }', undefined, { apiKey: adminKey });
    const text = (await scrape(t.url)).text;
    const names = labelValues(text, 'commerce_graphql_operation_duration_seconds_count', 'operation');
    expect(names.size).toBeLessThanOrEqual(MAX_OPERATION_NAMES + 2);
    expect(names).toContain('other');
    expect(names).toContain('anonymous');
  });

  it('the Grafana dashboard is valid JSON whose queries name only series /metrics serves', async () => {
    const dashboard = JSON.parse(fs.readFileSync(new URL('../../deploy/grafana/commerce.json', import.meta.url), 'utf8'));
    expect(typeof dashboard.title).toBe('string');
    expect(Array.isArray(dashboard.panels)).toBe(true);
    const text = (await scrape(t.url)).text;
    const served = new Set(
      text
        .split('\n')
        .filter((l) => l.startsWith('# TYPE '))
        .map((l) => l.split(' ')[2]!),
    );
    const exprs: string[] = dashboard.panels.flatMap((panel: { targets?: Array<{ expr: string }> }) => (panel.targets ?? []).map((target) => target.expr));
    expect(exprs.length).toBeGreaterThanOrEqual(5);
    for (const expr of exprs) {
      const names = expr.match(/\bcommerce_[a-z_]+/g) ?? [];
      expect(names.length, expr).toBeGreaterThan(0);
      for (const name of names) {
        const base = name.replace(/_(bucket|sum|count)$/, '');
        expect(served.has(name) || served.has(base), `${name} in ${expr}`).toBe(true);
      }
    }
  });
});

describe('tracing off', () => {
  it('loads no OpenTelemetry SDK module (OTEL_EXPORTER_OTLP_ENDPOINT unset)', async () => {
    expect(process.env.OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    await t.request('/api/health');
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    expect(loaded.some((file) => file.includes('/@opentelemetry/api/'))).toBe(true);
    expect(loaded.filter((file) => /\/@opentelemetry\/(sdk-|exporter-|instrumentation)|\/@prisma\/instrumentation\//.test(file))).toEqual([]);
  });
});

describe('GET /metrics access', () => {
  it('behind METRICS_TOKEN: 401 envelope without or with a wrong bearer token, 200 with it', async () => {
    const app = await startTestApp({ metrics: { token: TOKEN } });
    try {
      const missing = await scrape(app.url);
      expect(missing.status).toBe(401);
      expect(JSON.parse(missing.text)).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
      const wrong = await scrape(app.url, { authorization: 'Bearer not-the-token-at-all' });
      expect(wrong.status).toBe(401);
      expect(JSON.parse(wrong.text).error.code).toBe('UNAUTHORIZED');
      const right = await scrape(app.url, { authorization: `Bearer ${TOKEN}` });
      expect(right.status).toBe(200);
      expect(right.text).toContain('commerce_http_request_duration_seconds');
    } finally {
      await app.close();
    }
  });

  it('on METRICS_PORT: served on 127.0.0.1 only, and not on the API port', async () => {
    const app = await startTestApp({ metrics: { port: 0 } });
    try {
      const server = app.app.metricsServer!;
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const own = await scrape(server.url);
      expect(own.status).toBe(200);
      expect(own.text).toContain('commerce_outbox_lag_seconds');
      const api = await scrape(app.url);
      expect(api.status).toBe(404);
      expect(JSON.parse(api.text).error.code).toBe('NOT_FOUND');
    } finally {
      await app.close();
    }
  });

  it('off in production unless a token or a port is set', () => {
    expect(metricsOnApiPort({ env: 'production', metrics: {} })).toEqual({ served: false });
    expect(metricsOnApiPort({ env: 'production', metrics: { token: TOKEN } })).toEqual({ served: true, token: TOKEN });
    expect(metricsOnApiPort({ env: 'development', metrics: {} })).toEqual({ served: true });
    expect(metricsOnApiPort({ env: 'development', metrics: { enabled: false, token: TOKEN } })).toEqual({ served: false });
  });
});
