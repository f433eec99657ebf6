// Where a bench server's CPU went, from the V8 CPU profile node --cpu-prof wrote into `dir`: self time by package/file
// and by function, and inclusive time by function. Shared by bench/profile.ts and bench/checkout-profile.ts.
import fs from 'node:fs';
import path from 'node:path';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

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

/**
 * Prints the summary of the samples between `from` and `to` (µs of the monotonic clock, as process.hrtime: V8 stamps
 * samples with it), the busy time divided by `count` `unit`s (e.g. requests, visits), and the `top` entries of each table.
 */
export function printProfileSummary(dir: string, from: number, to: number, count: number, unit: string, top: number): void {
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
  console.log(`busy ${(busy / 1000).toFixed(0)} ms (${(busy / 1000 / count).toFixed(3)} ms per ${unit}), idle/program excluded; profile in ${dir}`);
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
}
