// Bench: POST /api/promotions/validate for a 3-line cart with a per-customer-limited percentage
// code (the costliest path: lookup plus the customer's redemption count), with an API key.
// Prints req/s, p50, p99 and SQL statements per request.
//   node --import tsx bench/promotions-validate.ts   (BENCH_SECONDS, default 8; BENCH_CONNECTIONS, default 20)
import { randomUUID } from 'node:crypto';
import { load, printTable, startTarget, type Result } from './support/driver.js';
import { api, statementCounter, statementsOfOne } from './support/probe.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);

const server = await startTarget('bench/support/server.ts');
try {
  await api(server, '/api/promotions', { code: 'BENCH10', name: 'Bench', type: 'percentage_off_order', value: 10, usageLimit: 1000, usageLimitPerCustomer: 3 });
  await api(server, '/api/promotions', { code: 'ITEMS15', name: 'Bench items', type: 'percentage_off_item', value: 15, entityTypes: ['product'] });
  const lineItems = Array.from({ length: 3 }, (_, i) => ({ entityId: randomUUID(), entityType: 'product', quantity: i + 1, unitPrice: 1999, totalPrice: 1999 * (i + 1) }));
  const results: Array<Result & { statementsPerRequest?: number }> = [];
  const headers = { 'x-api-key': server.info.key!, 'content-type': 'application/json' };
  const probes: string[] = [];
  for (const [name, body] of [
    ['POST /api/promotions/validate (per-customer limit)', { code: 'BENCH10', currency: 'USD', subtotal: 11_994, lineItems, customerId: 'customer-1' }],
    ['POST /api/promotions/validate (item discount)', { code: 'items15', currency: 'USD', subtotal: 11_994, lineItems }],
  ] as const) {
    const url = `${server.info.url}/api/promotions/validate`;
    const payload = JSON.stringify(body);
    probes.push(`${name}: ${await statementsOfOne(server, () => fetch(url, { method: 'POST', headers, body: payload }))}`);
    const scenario = { name, url, method: 'POST' as const, headers, body: payload };
    await load(scenario, 2, connections);
    const before = await statementCounter(server);
    const result: Result & { statementsPerRequest?: number } = await load(scenario, seconds, connections);
    result.statementsPerRequest = Math.round((((await statementCounter(server)) - before) / (result.requestsPerSecond * seconds)) * 100) / 100;
    results.push(result);
  }
  printTable(results);
  console.log(`\nSQL statements of one request (probed): ${probes.join('; ')}; ${connections} connections, ${seconds} s.`);
} finally {
  await server.stop();
}
