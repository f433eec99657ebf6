// Platform bench: GET /api/settings/general (REST facade) and the same read over /graphql,
// both with an API key, against a raw node:http baseline in the same run.
//   npm run bench:platform   (BENCH_SECONDS, BENCH_CONNECTIONS to change the load)
import { load, printTable, startTarget, type Result } from './support/driver.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

const baseline = await startTarget('bench/support/baseline.ts');
const server = await startTarget('bench/support/server.ts');
const auth = { 'x-api-key': server.info.key! };
const results: Array<Result & { statementsPerRequest?: number }> = [];

async function statements(): Promise<number> {
  server.child.kill('SIGUSR2');
  return Number((await server.nextLine()).statements);
}

try {
  results.push(await load({ name: 'raw node:http baseline', url: baseline.info.url! }, seconds, connections));
  for (const scenario of [
    { name: 'GET /api/settings/general', url: `${server.info.url}/api/settings/general`, headers: auth },
    {
      name: 'POST /graphql settingsGroup',
      url: `${server.info.url}/graphql`,
      method: 'POST' as const,
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ settingsGroup(group: "general") }' }),
    },
  ]) {
    // A short warm-up so JIT and pools are hot, then the measured run.
    await load(scenario, 2, connections);
    const before = await statements();
    const result = await load(scenario, seconds, connections);
    const total = result.requestsPerSecond * seconds;
    results.push({ ...result, statementsPerRequest: Math.round((((await statements()) - before) / total) * 100) / 100 });
  }
  printTable(results);
} finally {
  await server.stop();
  await baseline.stop();
}
