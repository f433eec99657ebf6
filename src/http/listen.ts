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
  close(): Promise<void>;
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
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
