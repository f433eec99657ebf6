// Checkout visit, A/B: two bench servers side by side — A from a baseline tree (e.g. `git archive <commit>` unpacked next to
// this one, with node_modules linked and src/generated copied), B from this tree — loaded in alternating rounds, and the
// server CPU per request of each step of the visit (create a cart, add an item ×3, check out) measured around each step
// (the server's process.cpuUsage through SIGUSR2), with its statements and round trips. On a shared machine absolute ms
// swing with the load; the B/A ratio of the same run does much less, so a change is judged by it (issue 30 goal 4).
//   node --import tsx bench/checkout-ab.ts <A bench/support/server.ts> <B bench/support/server.ts>   (ROUNDS 5, VISITS 60, CLIENTS 10)
import { round, setup } from './support/checkout-visits.js';

const [aScript, bScript] = process.argv.slice(2);
const rounds = Number(process.env.ROUNDS ?? 5);
const visits = Number(process.env.VISITS ?? 60);
const clients = Number(process.env.CLIENTS ?? 10);

const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const A = await setup('A', aScript!);
const B = await setup('B', bScript!);
await round(A, 20, clients);
await round(B, 20, clients); // warm-up
const results: Record<string, Array<Awaited<ReturnType<typeof round>>>> = { A: [], B: [] };
for (let r = 0; r < rounds; r += 1) {
  const order = r % 2 ? [B, A] : [A, B];
  for (const s of order) results[s.name]!.push(await round(s, visits, clients));
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
