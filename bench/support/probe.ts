// Helpers for the commerce benches: calls to the bench target's API (to set data up) and the
// SQL statement count of one request, read from the target's counter (SIGUSR2).
import type { Target } from './driver.js';

export async function api(target: Target, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${target.info.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-api-key': target.info.key!, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

export async function statementCounter(target: Target): Promise<number> {
  target.child.kill('SIGUSR2');
  return Number((await target.nextLine()).statements);
}

/** SQL statements of one request, after a warm-up request (key and organization caches hot). */
export async function statementsOfOne(target: Target, send: () => Promise<Response>): Promise<number> {
  await (await send()).arrayBuffer();
  const before = await statementCounter(target);
  const res = await send();
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`probe request failed: ${res.status}`);
  return (await statementCounter(target)) - before;
}
