// Observability overhead: the same two reads (REST and /graphql, API key) against three servers
// in one run, one at a time: metrics off, metrics on (the development default), and metrics on
// with tracing exporting every span (always_on sampling) to a local OTLP/HTTP sink that reads and
// discards. Prints req/s, latency and each ratio to the metrics-off server.
//   npm run bench:tracing   (BENCH_SECONDS, BENCH_CONNECTIONS)
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { load, printTable, startTarget, type Result } from './support/driver.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

let spansReceived = 0;
const sink = http.createServer((req, res) => {
  let bytes = 0;
  req.on('data', (chunk: Buffer) => (bytes += chunk.length));
  req.on('end', () => {
    if (bytes) spansReceived += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;

const variants: Array<{ label: string; env: NodeJS.ProcessEnv }> = [
  { label: 'metrics off, tracing off', env: { ...process.env, METRICS_ENABLED: 'false', OTEL_EXPORTER_OTLP_ENDPOINT: '' } },
  { label: 'metrics on', env: { ...process.env, METRICS_ENABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: '' } },
  { label: 'metrics + tracing', env: { ...process.env, METRICS_ENABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl, OTEL_TRACES_SAMPLER: 'always_on' } },
];

const results: Result[] = [];
const baseline = new Map<string, number>();
for (const variant of variants) {
  const server = await startTarget('bench/support/server.ts', variant.env);
  try {
    const auth = { 'x-api-key': server.info.key! };
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
      await load(scenario, 2, connections);
      const result = await load({ ...scenario, name: `${scenario.name} [${variant.label}]` }, seconds, connections);
      if (!baseline.has(scenario.name)) baseline.set(scenario.name, result.requestsPerSecond);
      const ratio = result.requestsPerSecond / baseline.get(scenario.name)!;
      results.push({ ...result, name: `${result.name} ×${ratio.toFixed(2)}` });
    }
  } finally {
    await server.stop();
  }
}
printTable(results);
console.log(`OTLP export requests received by the sink: ${spansReceived}`);
sink.close();
