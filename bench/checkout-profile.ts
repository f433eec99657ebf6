// `node --import tsx bench/checkout-profile.ts`: a V8 CPU profile of the bench server during checkout visits (the same
// visits as bench/checkout-ab.ts: create a cart, add 3 items, check out), then where its CPU went, as bench/profile.ts
// prints it. ROUNDS (4), VISITS (60), CLIENTS (10), BENCH_PROFILE_DIR (.bench-profiles), BENCH_TOP (40), STEP (all|cart|item|checkout).
import fs from 'node:fs';
import path from 'node:path';
import { round, setup } from './support/checkout-visits.js';
import { printProfileSummary } from './support/profile-summary.js';

const rounds = Number(process.env.ROUNDS ?? 4);
const visits = Number(process.env.VISITS ?? 60);
const clients = Number(process.env.CLIENTS ?? 10);
const top = Number(process.env.BENCH_TOP ?? 40);
const dir = path.resolve(process.env.BENCH_PROFILE_DIR ?? '.bench-profiles', `checkout-${Date.now()}`);
fs.mkdirSync(dir, { recursive: true });

const s = await setup('P', 'bench/support/server.ts', ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
await round(s, 20, clients); // warm-up
const from = Number(process.hrtime.bigint() / 1000n);
let visitsDone = 0;
for (let r = 0; r < rounds; r += 1) {
  const x = await round(s, visits, clients);
  visitsDone += visits;
  console.log(`visit ${x.visit.toFixed(2)} ms: cart ${x.cart.toFixed(2)}, item ${x.item.toFixed(2)}, checkout ${x.checkout.toFixed(2)}`);
}
const to = Number(process.hrtime.bigint() / 1000n);
await s.t.stop();
printProfileSummary(dir, from, to, visitsDone, 'visit', top);
