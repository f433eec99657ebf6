// A POST, A/B: two bench servers side by side — A from a baseline tree (`git archive <commit>` unpacked next to this
// one, node_modules linked, src/generated copied), B from this tree — each sent the same fixed number of
// `POST /graphql {"query":"{ settingsGroup(group: \"general\") }"}` with the admin key in alternating rounds, and the
// server CPU per request of each round read from the server (process.cpuUsage through SIGUSR2). Absolute ms swing
// with the machine's load; the B/A ratio of the same run much less (issue 30).
//   node --import tsx bench/post-ab.ts <A bench/support/server.ts> <B bench/support/server.ts>   (ROUNDS 7, REQUESTS 3000, CLIENTS 10)
// AB_PATH (/graphql), AB_METHOD (POST), AB_BODY (the settings query; '' for none), AB_KEY (admin | storefront) choose
// another request; BENCH_PRODUCTS seeds a catalog for it; A_ENV / B_ENV ("NAME=value,...") add to one side's environment;
// AB_BODY_B sends B another body (two queries compared on the same tree: what selecting a field costs).
// A_NODE_ARGS / B_NODE_ARGS (space-separated) add node or V8 flags to one side's command line (a flag A/B on one tree).
// `{entityId}` in AB_PATH is each server's own sample entity (GET /api/catalog/entities/{entityId}).
import autocannon from 'autocannon';
import { startTarget, type Target } from './support/driver.js';

const [aScript, bScript] = process.argv.slice(2);
const rounds = Number(process.env.ROUNDS ?? 7);
const requests = Number(process.env.REQUESTS ?? 3000);
const clients = Number(process.env.CLIENTS ?? 10);
const path = process.env.AB_PATH ?? '/graphql';
const method = process.env.AB_METHOD ?? 'POST';
const body = process.env.AB_BODY ?? JSON.stringify({ query: '{ settingsGroup(group: "general") }' });
const keyOf = (t: Target) => (process.env.AB_KEY === 'storefront' ? t.info.storefrontKey! : t.info.key!);
const bodyB = process.env.AB_BODY_B ?? body;
const pathOf = (t: Target) => path.replace('{entityId}', t.info.entityId ?? '');
const bodyOf = (t: Target) => (t === B ? bodyB : body);
const headersOf = (t: Target) => ({ 'x-api-key': keyOf(t), ...(bodyOf(t) ? { 'content-type': 'application/json' } : {}) });
const sideEnv = (spec: string | undefined) =>
  Object.fromEntries(
    (spec ?? '')
      .split(',')
      .filter(Boolean)
      .map((pair) => {
        // The name ends at the first '=': a value may hold more (NODE_OPTIONS=--flag=value).
        const at = pair.indexOf('=');
        return at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
      }),
  );

async function cpu(t: Target): Promise<number> {
  t.child.kill('SIGUSR2');
  const line = await t.nextLine();
  return Number(line.cpuMicros) / 1000;
}

async function round(t: Target, amount: number): Promise<number> {
  const before = await cpu(t);
  const result = await autocannon({
    url: `${t.info.url}${pathOf(t)}`,
    method: method as 'GET',
    headers: headersOf(t),
    ...(bodyOf(t) ? { body: bodyOf(t) } : {}),
    connections: clients,
    amount,
  });
  if (result.non2xx || result.errors) throw new Error(`non-2xx ${result.non2xx}, errors ${result.errors}`);
  return ((await cpu(t)) - before) / amount;
}

const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const nodeArgs = (spec: string | undefined) => (spec ?? '').split(' ').filter(Boolean);
const A = await startTarget(aScript!, { ...process.env, ...sideEnv(process.env.A_ENV) }, nodeArgs(process.env.A_NODE_ARGS));
const B = await startTarget(bScript!, { ...process.env, ...sideEnv(process.env.B_ENV) }, nodeArgs(process.env.B_NODE_ARGS));
for (const t of [A, B]) {
  const probe = await fetch(`${t.info.url}${pathOf(t)}`, { method, headers: headersOf(t), ...(bodyOf(t) ? { body: bodyOf(t) } : {}) });
  const text = await probe.text();
  if (probe.status !== 200 || text.includes('"errors"')) throw new Error(`${probe.status} ${text.slice(0, 300)}`);
  await round(t, requests); // warm-up
}
const a: number[] = [];
const b: number[] = [];
for (let r = 0; r < rounds; r += 1) {
  for (const which of r % 2 ? ['B', 'A'] : ['A', 'B']) {
    if (which === 'A') a.push(await round(A, requests));
    else b.push(await round(B, requests));
  }
}
await A.stop();
await B.stop();
console.log(
  `rounds ${rounds} × ${requests} requests, ${clients} clients, load average ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(`CPU ms/request  A ${median(a).toFixed(3)}  B ${median(b).toFixed(3)}  B/A ${(median(b) / median(a)).toFixed(3)}`);
const ratios = a.map((x, i) => b[i]! / x);
console.log(`median per-round B/A ${median(ratios).toFixed(3)}; per round: ${ratios.map((x) => x.toFixed(3)).join(' ')}`);
