// Shutdown drains: closing the listener (what SIGTERM does in src/server.ts) answers every
// request already in flight, refuses new connections, and cuts only what outlives the grace.
import { describe, expect, it } from 'vitest';
import { listen } from '../../src/http/listen.js';
import type { HttpApp } from '../../src/http/app.js';

/** An app whose every request takes `ms`; `started` counts requests that reached it. */
function slowApp(ms: number): HttpApp & { started: number } {
  const app = {
    started: 0,
    fetch: async () => {
      app.started += 1;
      await new Promise((r) => setTimeout(r, ms));
      return new Response('done');
    },
  };
  return app as unknown as HttpApp & { started: number };
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 10));
}

describe('graceful close', () => {
  it('answers all 20 requests in flight when closed with a grace period, and refuses new ones', async () => {
    const app = slowApp(1000);
    const server = await listen(app, 0, '127.0.0.1');
    const inFlight = Array.from({ length: 20 }, () => fetch(server.url).then(async (r) => [r.status, await r.text()] as const));
    await until(() => app.started === 20);
    const closed = server.close(5000);
    const answers = await Promise.all(inFlight);
    expect(answers).toEqual(Array.from({ length: 20 }, () => [200, 'done']));
    await closed;
    await expect(fetch(server.url)).rejects.toThrow();
  });

  it('cuts requests that outlive the grace period', async () => {
    const app = slowApp(5000);
    const server = await listen(app, 0, '127.0.0.1');
    const inFlight = fetch(server.url).then((r) => r.text());
    await until(() => app.started === 1);
    const started = Date.now();
    await server.close(300);
    expect(Date.now() - started).toBeLessThan(3000);
    await expect(inFlight).rejects.toThrow();
  });
});
