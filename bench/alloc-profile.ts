// `node --import tsx bench/alloc-profile.ts <scenario>`: what one request allocates, by function.
// The bench server runs under the inspector; V8's sampling heap profiler records every sampled
// allocation (including what the young and old generation collections then free: a request's
// garbage is the point) while autocannon loads one scenario, and the summary divides it by the
// requests served. Garbage is what the scavenger pays for (16% of a settings read's CPU on this
// machine, against ~1% for its floor), so the functions at the top are where to cut (issue 30).
// The CPU profile (bench/profile.ts) says where time goes; this says where the garbage comes from.
//   scenarios: settings, entity, list, cached (the list for a storefront key: warm cache hits)
//   BENCH_SECONDS (5), BENCH_CONNECTIONS (50), BENCH_TOP (40), ALLOC_SAMPLE_BYTES (512),
//   ALLOC_CALLERS=<function name prefix>: also the four frames above each allocation in it.
//   ALLOC_PROMOTED=1: only what outlived the young generation (not freed by a scavenge): what
//   something kept alive past two of them (bench/promotion.ts counts it per request).
//   scenario `path` with ALLOC_PATH=/api/...: any other GET of the app, with the admin key.
import WebSocket from 'ws';
import { load, startTarget } from './support/driver.js';

const which = process.argv[2] ?? 'settings';
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const top = Number(process.env.BENCH_TOP ?? 40);
const sampleBytes = Number(process.env.ALLOC_SAMPLE_BYTES ?? 512);
const watched = process.env.ALLOC_CALLERS;
const inspectPort = 9339;

const app = await startTarget('bench/support/server.ts', { ...process.env, BENCH_PRODUCTS: process.env.BENCH_PRODUCTS ?? '100' }, [`--inspect=127.0.0.1:${inspectPort}`]);
const list = `${app.info.url}/api/catalog/entities?limit=20&include=variants,attributes,pricing`;
const scenarios: Record<string, { url: string; key: string }> = {
  settings: { url: `${app.info.url}/api/settings/general`, key: app.info.key! },
  entity: { url: `${app.info.url}/api/catalog/entities/${app.info.entityId}`, key: app.info.key! },
  list: { url: list, key: app.info.key! },
  cached: { url: list, key: app.info.storefrontKey! },
  // Any other path of the app (ALLOC_PATH, e.g. /api/health/live): what the pipeline alone allocates.
  path: { url: `${app.info.url}${process.env.ALLOC_PATH ?? '/api/health/live'}`, key: app.info.key! },
};
const chosen = scenarios[which];
if (!chosen) throw new Error(`unknown scenario ${which}; one of ${Object.keys(scenarios).join(', ')}`);
const scenario = { name: which, url: chosen.url, headers: { 'x-api-key': chosen.key } };

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  callFrame: CallFrame;
  selfSize: number;
  children: ProfileNode[];
}

/** The Chrome DevTools protocol over the inspector's WebSocket: one call at a time is all this needs. */
async function devtools(): Promise<{ call(method: string, params?: object): Promise<Record<string, unknown>>; close(): void }> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json()) as Array<{ webSocketDebuggerUrl: string }>;
  const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl);
  await new Promise((resolve) => socket.once('open', resolve));
  const pending = new Map<number, (result: Record<string, unknown>) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: Record<string, unknown> };
    if (message.id) pending.get(message.id)?.(message.result ?? {});
  });
  let id = 0;
  return {
    call: (method, params = {}) =>
      new Promise((resolve) => {
        id += 1;
        pending.set(id, resolve);
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}

try {
  await load(scenario, 3, connections); // warm-up: compiled code, caches, pools
  const inspector = await devtools();
  await inspector.call('HeapProfiler.enable');
  await inspector.call('HeapProfiler.startSampling', {
    samplingInterval: sampleBytes,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: process.env.ALLOC_PROMOTED !== '1',
  });
  const result = await load(scenario, seconds, connections);
  const { profile } = (await inspector.call('HeapProfiler.stopSampling')) as { profile: { head: ProfileNode } };
  inspector.close();

  const place = (frame: CallFrame) =>
    `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/\/.*?\/(src|bench)\//, '$1/')}:${frame.lineNumber + 1}`;
  const byFunction = new Map<string, number>();
  const byCallers = new Map<string, number>();
  let total = 0;
  const walk = (node: ProfileNode, stack: string[]) => {
    const name = place(node.callFrame);
    byFunction.set(name, (byFunction.get(name) ?? 0) + node.selfSize);
    if (watched && node.selfSize && name.startsWith(watched)) {
      const path = stack.slice(-4).join(' < ');
      byCallers.set(path, (byCallers.get(path) ?? 0) + node.selfSize);
    }
    total += node.selfSize;
    for (const child of node.children) walk(child, [...stack, name]);
  };
  walk(profile.head, []);
  const perRequest = (bytes: number) => `${(bytes / result.total).toFixed(0).padStart(7)} B`;
  console.log(
    `${which}: ${result.total} requests, ${result.requestsPerSecond} req/s; allocated ${(total / result.total / 1024).toFixed(1)} KB per request (sampled every ${sampleBytes} B)`,
  );
  console.log('\nallocated per request, by function (self)');
  for (const [name, bytes] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${perRequest(bytes)}  ${name}`);
  if (watched) {
    console.log(`\nallocations in ${watched}, by the four frames above`);
    for (const [path, bytes] of [...byCallers].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`${perRequest(bytes)}  ${path}`);
  }
} finally {
  await app.stop();
}
