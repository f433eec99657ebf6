// Bench: GET /api/inventory/check with 50 entity ids (each with stock in two warehouses), with an
// API key. Prints req/s, p50, p99 and SQL statements per request (a single probed request, and
// the average over the measured run).
//   node --import tsx bench/inventory-check.ts   (BENCH_SECONDS, default 8; BENCH_CONNECTIONS, default 20)
import { load, printTable, startTarget, type Result } from './support/driver.js';
import { api, statementCounter, statementsOfOne } from './support/probe.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);

const server = await startTarget('bench/support/server.ts');
try {
  const second = await api(server, '/api/inventory/warehouses', { name: 'Second', code: 'SECOND' });
  const ids: string[] = [];
  for (let i = 0; i < 50; i += 1) {
    const entity = await api(server, '/api/catalog/entities', { type: 'product', slug: `bench-${i}`, status: 'active' });
    await api(server, '/api/catalog/entities/' + entity.id + '/variants/bulk', { axes: { size: ['S', 'M', 'L'] } });
    await api(server, '/api/inventory/adjust', { entityId: entity.id, type: 'restock', quantity: 10 });
    await api(server, '/api/inventory/adjust', { entityId: entity.id, warehouseId: second.id, type: 'restock', quantity: 5 });
    ids.push(entity.id);
  }
  const url = `${server.info.url}/api/inventory/check?entityIds=${ids.join(',')}`;
  const headers = { 'x-api-key': server.info.key! };
  const probe = await statementsOfOne(server, () => fetch(url, { headers }));

  const scenario = { name: 'GET /api/inventory/check (50 ids)', url, headers };
  await load(scenario, 2, connections);
  const before = await statementCounter(server);
  const result: Result & { statementsPerRequest?: number } = await load(scenario, seconds, connections);
  const total = result.requestsPerSecond * seconds;
  result.statementsPerRequest = Math.round((((await statementCounter(server)) - before) / total) * 100) / 100;
  printTable([result]);
  console.log(`\nSQL statements of one request (probed): ${probe}; ${connections} connections, ${seconds} s.`);
} finally {
  await server.stop();
}
