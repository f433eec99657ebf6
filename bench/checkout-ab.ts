// Checkout visit, A/B: two bench servers side by side — A from a baseline tree (e.g. `git archive <commit>` unpacked next to
// this one, with node_modules linked and src/generated copied), B from this tree — loaded in alternating rounds, and the
// server CPU per request of each step of the visit (create a cart, add an item ×3, check out) measured around each step
// (the server's process.cpuUsage through SIGUSR2), with its statements and round trips. On a shared machine absolute ms
// swing with the load; the B/A ratio of the same run does much less, so a change is judged by it (issue 30 goal 4).
//   node --import tsx bench/checkout-ab.ts <A bench/support/server.ts> <B bench/support/server.ts>   (ROUNDS 5, VISITS 60, CLIENTS 10)
import { startTarget, type Target } from './support/driver.js';

const [aScript, bScript] = process.argv.slice(2);
const rounds = Number(process.env.ROUNDS ?? 5);
const visits = Number(process.env.VISITS ?? 60);
const clients = Number(process.env.CLIENTS ?? 10);
const productCount = 30;

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
  const t = await startTarget(script, process.env);
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

const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const A = await setup('A', aScript!);
const B = await setup('B', bScript!);
await round(A, 20);
await round(B, 20); // warm-up
const results: Record<string, Array<Awaited<ReturnType<typeof round>>>> = { A: [], B: [] };
for (let r = 0; r < rounds; r += 1) {
  const order = r % 2 ? [B, A] : [A, B];
  for (const s of order) results[s.name]!.push(await round(s, visits));
}
await A.t.stop();
await B.t.stop();
const keys = ['cart', 'item', 'checkout', 'visit'] as const;
console.log(`rounds ${rounds} × ${visits} visits, ${clients} clients`);
console.log('| step | A ms | B ms | B/A | stmts A→B | round trips A→B |');
for (const k of keys) {
  const a = median(results.A!.map((x) => x[k]));
  const b = median(results.B!.map((x) => x[k]));
  const st = k === 'visit' ? '' : `${results.A![0]!.stmts[k].toFixed(2)}→${results.B![0]!.stmts[k].toFixed(2)}`;
  const rt = k === 'visit' ? '' : `${results.A![0]!.rts[k].toFixed(2)}→${results.B![0]!.rts[k].toFixed(2)}`;
  console.log(`| ${k} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${(b / a).toFixed(3)} | ${st} | ${rt} |`);
}
// The median of each round's own B/A (A and B ran back to back in it) swings less with the load than the ratio of the two medians.
for (const k of keys) {
  const ratios = results.A!.map((a, i) => results.B![i]![k] / a[k]);
  console.log(`median per-round B/A ${k}: ${median(ratios).toFixed(3)}`);
}
console.log('per-round B/A visit:', results.A!.map((a, i) => (results.B![i]!.visit / a.visit).toFixed(3)).join(' '));
