// Serves an HttpApp on node:http through @whatwg-node/server (the adapter Yoga itself uses),
// passing the client address along for anonymous rate limits, and shuts it down without
// cutting a request (shutdown() below).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServerAdapter } from '@whatwg-node/server';
import type { HttpApp } from './app.js';

export interface ShutdownOptions {
  /**
   * How long the listener keeps accepting after readiness turned 503, so a load balancer has
   * time to stop sending and connections already queued in the kernel are still answered.
   */
  drainMs?: number;
  /** After the listener closed, how long requests in flight may take before their sockets are cut. */
  graceMs?: number;
}

export interface Listening {
  url: string;
  port: number;
  server: http.Server;
  /**
   * SIGTERM's sequence: readiness answers 503 and every answer carries Connection: close at once
   * (clients and balancers reconnect elsewhere), the listener keeps accepting for drainMs, then
   * stops, idle sockets close, and this resolves as soon as the last request in flight has been
   * answered; sockets still busy graceMs later are cut.
   */
  shutdown(options?: ShutdownOptions): Promise<void>;
  /** shutdown() with no drain window (tests and fatal paths). */
  close(graceMs?: number): Promise<void>;
}

export async function listen(app: HttpApp, port: number, host: string): Promise<Listening> {
  let draining = false;
  const adapter = createServerAdapter<{ req: http.IncomingMessage; res: http.ServerResponse }>(async (request, context) => {
    const response = await app.fetch(request, { clientAddress: context.req?.socket?.remoteAddress });
    // Node 20 keeps a connection alive after server.close() (no Connection: close of its own):
    // without this header a keep-alive client would be served on it until the grace ran out.
    if (draining) context.res?.setHeader('connection', 'close');
    return response;
  });
  const server = http.createServer(adapter);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;

  async function shutdown({ drainMs = 0, graceMs = 0 }: ShutdownOptions = {}): Promise<void> {
    draining = true;
    app.drain?.();
    if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      // close() stops accepting and calls back once every connection has ended: idle ones are
      // closed now, busy ones after their answer (which carries Connection: close).
      server.close(() => {
        clearTimeout(timer);
        resolve();
      });
      server.closeIdleConnections();
    });
  }

  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    server,
    shutdown,
    close: (graceMs = 0) => shutdown({ graceMs }),
  };
}
