// Counts of answers the contract harnesses validated, summed over the whole run by the global
// setup's teardown ("contract: N REST answers validated, M mismatches").
//
// File format: the global setup provides `contractCountsDir` (.test-data/contract-counts/run-<pid>,
// one directory per `vitest run`). Every test process appends to `<dir>/<its pid>.jsonl` one
// JSON line per flush:
//   { "rest": n, "graphql": n, "restMismatches": n, "graphqlMismatches": n }
// where `rest` / `graphql` count answers validated against /api/doc / the GraphQL schema since the
// previous flush of that process, and the mismatch fields count answers that failed (each one
// also threw in the test that made the call). Missing fields mean 0. The teardown sums every
// line of every file, then removes the directory.
import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';

export interface ContractCounts {
  rest: number;
  graphql: number;
  restMismatches: number;
  graphqlMismatches: number;
}

let dir: string | undefined;
const pending: ContractCounts = { rest: 0, graphql: 0, restMismatches: 0, graphqlMismatches: 0 };
let exitHook = false;

export function countContract(kind: 'rest' | 'graphql', ok: boolean): void {
  dir ??= countsDir();
  if (ok) pending[kind] += 1;
  else pending[kind === 'rest' ? 'restMismatches' : 'graphqlMismatches'] += 1;
  if (!exitHook) {
    exitHook = true;
    process.on('exit', flushContractCounts);
  }
}

function countsDir(): string | undefined {
  try {
    return inject('contractCountsDir');
  } catch {
    return undefined; // outside a vitest worker
  }
}

/** Appends what was counted since the last flush (test apps flush when they close). */
export function flushContractCounts(): void {
  if (!pending.rest && !pending.graphql && !pending.restMismatches && !pending.graphqlMismatches) return;
  dir ??= countsDir();
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  fs.appendFileSync(path.join(dir, `${process.pid}.jsonl`), JSON.stringify(pending) + '\n');
  pending.rest = pending.graphql = pending.restMismatches = pending.graphqlMismatches = 0;
}

/** Keeps a failed answer's details beside the counts (`mismatches.log`, one JSON line each). */
export function logContractMismatch(entry: Record<string, unknown>): void {
  dir ??= countsDir();
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  fs.appendFileSync(path.join(dir, 'mismatches.log'), JSON.stringify(entry) + '\n');
}

/** Every line of every file of a run, summed. */
export function sumContractCounts(runDir: string): ContractCounts {
  const total: ContractCounts = { rest: 0, graphql: 0, restMismatches: 0, graphqlMismatches: 0 };
  if (!fs.existsSync(runDir)) return total;
  for (const file of fs.readdirSync(runDir)) {
    if (!file.endsWith('.jsonl')) continue;
    for (const line of fs.readFileSync(path.join(runDir, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const counts = JSON.parse(line) as Partial<ContractCounts>;
      for (const key of Object.keys(total) as Array<keyof ContractCounts>) total[key] += counts[key] ?? 0;
    }
  }
  return total;
}
