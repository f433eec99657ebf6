// `node --import tsx bench/checkout-profile.ts`: a V8 CPU profile of the bench server during checkout visits (the same
// visits as bench/checkout-ab.ts: create a cart, add 3 items, check out), then where its CPU went, as bench/profile.ts
// prints it. ROUNDS (4), VISITS (60), CLIENTS (10), BENCH_PROFILE_DIR (.bench-profiles), BENCH_TOP (40), STEP (all|cart|item|checkout).
import fs from 'node:fs';
import path from 'node:path';
import { startTarget, type Target } from './support/driver.js';

const rounds = Number(process.env.ROUNDS ?? 4);
const visits = Number(process.env.VISITS ?? 60);
const clients = Number(process.env.CLIENTS ?? 10);
const productCount = 30;
const top = Number(process.env.BENCH_TOP ?? 40);
const dir = path.resolve(process.env.BENCH_PROFILE_DIR ?? '.bench-profiles', `checkout-${Date.now()}`);
fs.mkdirSync(dir, { recursive: true });
interface Store {
  name: string;
  t: Target;
  base: string;
  admin: Record<string, string>;
  products: string[];
  stmts?: Record<string, number>;
}

async function call(base: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const response = await fetch(base + path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { 'content-type': 'application/json', ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}
async function must(base: string, path: string, init: Parameters<typeof call>[2], expected = [200, 201]) {
  const res = await call(base, path, init);
  if (!expected.includes(res.status)) throw new Error(`${path} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}
async function cpu(t: Target): Promise<{ cpu: number; statements: number; roundTrips: number }> {
  t.child.kill('SIGUSR2');
  const line = await t.nextLine();
  return { cpu: Number(line.cpuMicros) / 1000, statements: Number(line.statements), roundTrips: Number(line.roundTrips) };
}

async function setup(name: string, script: string): Promise<Store> {
  const t = await startTarget(script, process.env, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  const base = t.info.url!;
  const admin = { 'x-api-key': t.info.key!, 'content-type': 'application/json' };
  const warehouse = await must(base, '/api/inventory/warehouses', { headers: admin, body: { name: 'Bench', code: 'BENCH' } });
  const taxClass = await must(base, '/api/tax/classes', { headers: admin, body: { name: 'standard', rateBps: 2000, isDefault: true } });
  const products: string[] = [];
  for (let i = 0; i < productCount; i += 1) {
    const entity = await must(base, '/api/catalog/entities', { headers: admin, body: { type: 'product', slug: `bench-${i}`, status: 'active', taxClassId: taxClass.id } });
    await must(base, '/api/pricing/prices', { headers: admin, body: { entityId: entity.id, currency: 'USD', amount: 1000 + i * 10 } });
    await must(base, '/api/inventory/adjust', { headers: admin, body: { entityId: entity.id, warehouseId: warehouse.id, type: 'restock', quantity: 1_000_000 } });
    products.push(entity.id);
  }
  return { name, t, base, admin, products };
}

function pick3(products: string[]): string[] {
  const chosen = new Set<string>();
  while (chosen.size < 3) chosen.add(products[Math.floor(Math.random() * products.length)]!);
  return [...chosen];
}
const address = { line1: '1 Main St', city: 'Springfield', postalCode: '62701', country: 'US' };

async function pool<T>(items: T[], fn: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < items.length) {
        const item = items[next++]!;
        await fn(item);
      }
    }),
  );
}

async function round(s: Store, count: number) {
  const c0 = await cpu(s.t);
  const carts: Array<{ id: string; token: string; picks: string[] }> = [];
  await pool(
    Array.from({ length: count }, (_, i) => i),
    async () => {
      const cart = await must(s.base, '/api/carts', { body: { currency: 'USD' } });
      carts.push({ id: cart.id, token: cart.cartToken, picks: pick3(s.products) });
    },
  );
  const c1 = await cpu(s.t);
  const adds = carts.flatMap((c) => c.picks.map((entityId, k) => ({ c, entityId, k })));
  // items of one cart in order: group by k
  for (let k = 0; k < 3; k += 1)
    await pool(
      adds.filter((a) => a.k === k),
      async ({ c, entityId }) => {
        await must(s.base, `/api/carts/${c.id}/items`, { headers: { 'x-cart-token': c.token }, body: { entityId, quantity: 1 } });
      },
    );
  const c2 = await cpu(s.t);
  await pool(carts, async (c) => {
    await must(s.base, '/api/checkout', {
      headers: { 'x-cart-token': c.token },
      body: { cartId: c.id, paymentMethodId: 'pm_card_visa', currency: 'USD', shippingAddress: address, email: 'bench@example.com' },
    });
  });
  const c3 = await cpu(s.t);
  return {
    cart: (c1.cpu - c0.cpu) / count,
    item: (c2.cpu - c1.cpu) / (3 * count),
    checkout: (c3.cpu - c2.cpu) / count,
    visit: (c3.cpu - c0.cpu) / count,
    stmts: { cart: (c1.statements - c0.statements) / count, item: (c2.statements - c1.statements) / (3 * count), checkout: (c3.statements - c2.statements) / count },
    rts: { cart: (c1.roundTrips - c0.roundTrips) / count, item: (c2.roundTrips - c1.roundTrips) / (3 * count), checkout: (c3.roundTrips - c2.roundTrips) / count },
  };
}

const s = await setup('P', 'bench/support/server.ts');
await round(s, 20); // warm-up
const from = Number(process.hrtime.bigint() / 1000n);
let visitsDone = 0;
for (let r = 0; r < rounds; r += 1) {
  const x = await round(s, visits);
  visitsDone += visits;
  console.log(`visit ${x.visit.toFixed(2)} ms: cart ${x.cart.toFixed(2)}, item ${x.item.toFixed(2)}, checkout ${x.checkout.toFixed(2)}`);
}
const to = Number(process.hrtime.bigint() / 1000n);
await s.t.stop();
const result = { total: visitsDone };
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error('no profile written');
const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  at += delta;
  if (at >= from && at <= to) self.set(id, (self.get(id) ?? 0) + delta);
});
const total = [...self.values()].reduce((a, b) => a + b, 0);
const idle = [...self].filter(([id]) => ['(idle)', '(program)'].includes(byId.get(id)?.callFrame.functionName ?? '')).reduce((a, [, t]) => a + t, 0);

function where(url: string): string {
  if (!url) return '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return url;
  const src = url.indexOf('/src/');
  return src >= 0 ? url.slice(src + 1) : url;
}
// Inclusive time: each sample counts once for every distinct function on its stack.
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const inclusive = new Map<string, number>();
for (const [id, t] of self) {
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const frame = byId.get(at)!.callFrame;
    const fn = `${frame.functionName || '(anonymous)'} ${where(frame.url)}:${frame.lineNumber + 1}`;
    if (seen.has(fn)) continue;
    seen.add(fn);
    inclusive.set(fn, (inclusive.get(fn) ?? 0) + t);
  }
}
const byPlace = new Map<string, number>();
const byFunction = new Map<string, number>();
for (const [id, t] of self) {
  const frame = byId.get(id)!.callFrame;
  const place = where(frame.url);
  byPlace.set(place, (byPlace.get(place) ?? 0) + t);
  const fn = `${frame.functionName || '(anonymous)'} ${place}:${frame.lineNumber + 1}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + t);
}
const busy = total - idle;
const pct = (t: number) => `${((100 * t) / busy).toFixed(1)}%`;
console.log(`busy ${(busy / 1000).toFixed(0)} ms (${(busy / 1000 / result.total).toFixed(3)} ms per visit), idle/program excluded; profile in ${dir}`);
console.log('\nself time by place');
for (const [place, t] of [...byPlace].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(t).padStart(6)}  ${place}`);
console.log('\nself time by function');
for (const [fn, t] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(t).padStart(6)}  ${fn}`);
console.log('\ninclusive time by function (src/ and the stack around it)');
for (const [fn, t] of [...inclusive]
  .filter(([fn]) => !fn.startsWith('('))
  .sort((a, b) => b[1] - a[1])
  .slice(0, top * 2))
  console.log(`${pct(t).padStart(6)}  ${fn}`);
