// Shared bench plumbing: start a target process, read its JSON lines, run autocannon.
import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import autocannon from 'autocannon';
import { SERVER_NODE_FLAGS } from '../../scripts/node-flags.js';

export interface Target {
  info: Record<string, string>;
  child: ChildProcess;
  /** The next JSON line the target prints. */
  nextLine(): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

/**
 * Starts a bench target under the flags `npm start` gives the server (scripts/node-flags.ts), so
 * the app is measured as an operator runs it; the floors and the raw yardstick get them too (same
 * runtime settings on both sides of a ratio).
 */
export async function startTarget(script: string, env: NodeJS.ProcessEnv = process.env, nodeArgs: string[] = []): Promise<Target> {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...nodeArgs, '--import', 'tsx', script], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout! });
  const queue: Array<(line: Record<string, unknown>) => void> = [];
  lines.on('line', (line) => {
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(line);
    } catch {
      return; // not one of ours (V8's --trace-gc lines, say): the next waiter still waits for one
    }
    queue.shift()?.(parsed);
  });
  const nextLine = () => new Promise<Record<string, unknown>>((resolve) => queue.push(resolve));
  const info = (await nextLine()) as Record<string, string>;
  return {
    info,
    child,
    nextLine,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface Scenario {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export interface Result {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Requests completed in the run. */
  total: number;
}

export async function load(scenario: Scenario, seconds: number, connections: number): Promise<Result> {
  const result = await autocannon({
    url: scenario.url,
    method: scenario.method ?? 'GET',
    headers: scenario.headers,
    body: scenario.body,
    connections,
    duration: seconds,
  });
  return {
    name: scenario.name,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    total: result.requests.total,
  };
}

export function printTable(results: Array<Result & { statementsPerRequest?: number }>): void {
  console.log('\n| scenario | req/s | p50 ms | p99 ms | non-2xx | SQL/request |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(`| ${r.name} | ${r.requestsPerSecond} | ${r.p50} | ${r.p99} | ${r.non2xx + r.errors} | ${r.statementsPerRequest ?? '—'} |`);
  }
}
