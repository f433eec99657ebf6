// The checkout visit shared by bench/checkout-ab.ts and bench/checkout-profile.ts: a bench server seeded with a store
// (a warehouse, a tax class, products with a price and plenty of stock), shoppers' visits (create a cart, add 3 items,
// check out) in rounds, and the server's CPU, statements and round trips read around each step through SIGUSR2.
import { startTarget, type Target } from './driver.js';

const productCount = 30;

export interface Store {
  name: string;
  t: Target;
  base: string;
  admin: Record<string, string>;
  products: string[];
  stmts?: Record<string, number>;
}

export async function call(base: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const response = await fetch(base + path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { 'content-type': 'application/json', ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}
export async function must(base: string, path: string, init: Parameters<typeof call>[2], expected = [200, 201]) {
  const res = await call(base, path, init);
  if (!expected.includes(res.status)) throw new Error(`${path} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}
async function cpu(t: Target): Promise<{ cpu: number; statements: number; roundTrips: number }> {
  t.child.kill('SIGUSR2');
  const line = await t.nextLine();
  return { cpu: Number(line.cpuMicros) / 1000, statements: Number(line.statements), roundTrips: Number(line.roundTrips) };
}

/** Starts `script` as a bench server (with `nodeArgs`, e.g. --cpu-prof) and seeds its store. */
export async function setup(name: string, script: string, nodeArgs: string[] = []): Promise<Store> {
  const t = await startTarget(script, process.env, nodeArgs);
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

async function pool<T>(clients: number, items: T[], fn: (item: T) => Promise<void>) {
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

/** `count` visits by `clients` concurrent shoppers, step by step; per request of each step: server CPU ms, statements, round trips. */
export async function round(s: Store, count: number, clients: number) {
  const c0 = await cpu(s.t);
  const carts: Array<{ id: string; token: string; picks: string[] }> = [];
  await pool(
    clients,
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
      clients,
      adds.filter((a) => a.k === k),
      async ({ c, entityId }) => {
        await must(s.base, `/api/carts/${c.id}/items`, { headers: { 'x-cart-token': c.token }, body: { entityId, quantity: 1 } });
      },
    );
  const c2 = await cpu(s.t);
  await pool(clients, carts, async (c) => {
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
