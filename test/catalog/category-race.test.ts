// Issue 22, finding 15: two concurrent category updates, A.parent = B and B.parent = A, each
// passed the cycle check before the other wrote, and made a loop 4 times in 5. The check and the
// write are now one step per organization's category tree. Proved by a real race: both PATCHes
// on their own TCP connection (no keep-alive), released together once both are connected, 20
// rounds; every round exactly one succeeds and the tree has no cycle.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let admin: string;
const ROUNDS = 20;

beforeAll(async () => {
  t = await startTestApp({ rateLimit: { enabled: false } });
  admin = await t.apiKey('admin');
});
afterAll(() => t?.close());

interface Pending {
  release(): void;
  answer: Promise<number>;
}

/** A PATCH on a fresh connection, held back (headers sent, body not) until release(). */
function heldPatch(path: string, body: unknown): Promise<Pending> {
  const payload = JSON.stringify(body);
  const url = new URL(t.url + path);
  return new Promise((connected, fail) => {
    let settle!: (status: number) => void;
    const answer = new Promise<number>((resolve) => (settle = resolve));
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'PATCH',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), 'x-api-key': admin },
      },
      (res) => {
        res.resume();
        res.on('end', () => settle(res.statusCode ?? 0));
      },
    );
    req.on('error', fail);
    req.flushHeaders();
    req.on('socket', (socket) => socket.once('connect', () => connected({ release: () => req.end(payload), answer })));
  });
}

async function category(name: string): Promise<string> {
  const res = await t.request('/api/catalog/categories', { apiKey: admin, body: { name, slug: `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}` } });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id;
}

/** Walks up from each category; a walk that returns to where it started is a cycle. */
async function hasCycle(ids: string[]): Promise<boolean> {
  const rows = await t.app.db.catalogCategory.findMany({ where: { id: { in: ids } }, select: { id: true, parentId: true } });
  const parent = new Map(rows.map((r) => [r.id, r.parentId]));
  return ids.some((start) => {
    let at = parent.get(start) ?? null;
    for (let steps = 0; at && steps <= ids.length; steps++) {
      if (at === start) return true;
      at = parent.get(at) ?? null;
    }
    return false;
  });
}

describe('category parent race', () => {
  it(`A.parent=B and B.parent=A sent together: exactly one wins, no cycle, ${ROUNDS} rounds`, async () => {
    const outcomes: Record<string, number> = {};
    let cycles = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const [a, b] = [await category('a'), await category('b')];
      const held = await Promise.all([heldPatch(`/api/catalog/categories/${a}`, { parentId: b }), heldPatch(`/api/catalog/categories/${b}`, { parentId: a })]);
      for (const p of held) p.release(); // the barrier: both connected, bodies go in the same tick
      const statuses = (await Promise.all(held.map((p) => p.answer))).sort();
      outcomes[statuses.join('+')] = (outcomes[statuses.join('+')] ?? 0) + 1;
      if (await hasCycle([a, b])) cycles += 1;
    }
    console.log(`category parent race: ${ROUNDS} rounds → ${JSON.stringify(outcomes)}, cycles ${cycles}`);
    expect(cycles).toBe(0);
    expect(outcomes).toEqual({ '200+422': ROUNDS });
  });
});
