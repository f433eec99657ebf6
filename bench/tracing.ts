// Observability overhead: the same two reads (REST and /graphql, API key) against four servers
// in one run, one at a time: metrics off, metrics on (the development default), and metrics on
// with tracing sampling 10% and 100% of traces, exported to a local OTLP/HTTP sink that reads
// and discards. Run it with DATABASE_URL set (each server makes its own database there). Prints req/s, latency and each ratio to the metrics-off server.
//   npm run bench:tracing   (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ROUNDS)
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
  {
    label: 'metrics + tracing 10%',
    env: { ...process.env, METRICS_ENABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' },
  },
  { label: 'metrics + tracing 100%', env: { ...process.env, METRICS_ENABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl, OTEL_TRACES_SAMPLER: 'always_on' } },
];

// BENCH_ROUNDS rounds, the variants interleaved in each: on a shared machine the best of a
// variant's rounds (most req/s, least CPU per request) is the figure least disturbed by others.
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const best = new Map<string, { result: Result; cpu: number }>();
const scenarioNames = ['GET /api/settings/general', 'POST /graphql settingsGroup'];
for (let round = 0; round < rounds; round += 1) {
  for (const variant of variants) {
    const server = await startTarget('bench/support/server.ts', variant.env);
    try {
      const auth = { 'x-api-key': server.info.key! };
      const scenarios = [
        { name: scenarioNames[0]!, url: `${server.info.url}/api/settings/general`, headers: auth },
        {
          name: scenarioNames[1]!,
          url: `${server.info.url}/graphql`,
          method: 'POST' as const,
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ settingsGroup(group: "general") }' }),
        },
      ];
      for (const scenario of scenarios) {
        await load(scenario, 2, connections);
        const cpu = async () => {
          server.child.kill('SIGUSR2');
          return Number((await server.nextLine()).cpuMicros);
        };
        const cpuBefore = await cpu();
        const result = await load({ ...scenario, name: `${scenario.name} [${variant.label}]` }, seconds, connections);
        const perRequest = ((await cpu()) - cpuBefore) / Math.max(1, result.total);
        const key = `${scenario.name}|${variant.label}`;
        const previous = best.get(key);
        best.set(key, {
          result: !previous || result.requestsPerSecond > previous.result.requestsPerSecond ? result : previous.result,
          cpu: Math.min(previous?.cpu ?? Infinity, perRequest),
        });
      }
    } finally {
      await server.stop();
    }
  }
}

const results: Result[] = [];
const cpuRows: string[] = [];
for (const scenario of scenarioNames) {
  const base = best.get(`${scenario}|${variants[0]!.label}`)!;
  for (const variant of variants) {
    const entry = best.get(`${scenario}|${variant.label}`)!;
    results.push({ ...entry.result, name: `${entry.result.name} ×${(entry.result.requestsPerSecond / base.result.requestsPerSecond).toFixed(2)}` });
    cpuRows.push(`| ${scenario} [${variant.label}] | ${Math.round(entry.cpu)} | ×${(entry.cpu / base.cpu).toFixed(2)} |`);
  }
}
console.log(`best of ${rounds} rounds, ${seconds} s each, ${connections} connections`);
printTable(results);
console.log('\n| scenario | server CPU µs/request | ratio to metrics off |\n|---|---:|---:|');
for (const row of cpuRows) console.log(row);
console.log(`OTLP export requests received by the sink: ${spansReceived}`);
sink.close();
