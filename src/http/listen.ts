// Serves an HttpApp on node:http through @whatwg-node/server (the adapter Yoga itself uses),
// passing the client address along for anonymous rate limits.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServerAdapter } from '@whatwg-node/server';
import type { HttpApp } from './app.js';

export interface Listening {
  url: string;
  port: number;
  server: http.Server;
  /**
   * Stops accepting connections and resolves once every request in flight has been answered;
   * connections still busy after graceMs are cut (default 0: tests and fatal paths).
   */
  close(graceMs?: number): Promise<void>;
}

export async function listen(app: HttpApp, port: number, host: string): Promise<Listening> {
  const adapter = createServerAdapter<{ req: http.IncomingMessage }>((request, context) =>
    app.fetch(request, { clientAddress: context.req?.socket?.remoteAddress }),
  );
  const server = http.createServer(adapter);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    server,
    close: (graceMs = 0) =>
      new Promise<void>((resolve) => {
        // Idle keep-alive sockets go now; sockets with a request in flight finish it first
        // (Node answers it with Connection: close), so SIGTERM cuts no request within the grace.
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
