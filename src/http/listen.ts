// Serves an HttpApp on node:http through @whatwg-node/server (the adapter Yoga itself uses),
// passing the client address along for anonymous rate limits, and shuts it down without
// cutting a request (shutdown() below).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
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

/**
 * Requests Node's HTTP parser refuses before any handler runs, answered with the error envelope
 * every other 4xx carries (Node's own answer has no body): a request line and headers above
 * the 16 KB limit (a long query string) 431, chunk extensions too large 413, headers that did
 * not arrive in time 408, anything else unreadable 400. Written only when Node would write its
 * own (the socket is writable and no answer of an earlier request on it has started), then the
 * connection is closed, as Node does.
 */
const PARSER_REFUSALS: Record<string, { status: number; code: string; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, code: 'REQUEST_HEADER_FIELDS_TOO_LARGE', message: 'Request line and headers above 16 KB: send long filters in fewer or shorter parameters' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Chunk extensions above the limit' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'REQUEST_TIMEOUT', message: 'Request headers not received in time' },
};
const UNREADABLE = { status: 400, code: 'BAD_REQUEST', message: 'The request is not valid HTTP' };

function answerClientError(error: Error & { code?: string }, socket: Duplex & { _httpMessage?: { headersSent?: boolean } | null }): void {
  // Node's default handler (lib/_http_server.js socketOnError) checks the same: an answer in flight on the socket must not be corrupted.
  if (error.code !== 'ECONNRESET' && socket.writable && !socket._httpMessage?.headersSent) {
    const refusal = PARSER_REFUSALS[error.code ?? ''] ?? UNREADABLE;
    const body = JSON.stringify({ error: { code: refusal.code, message: refusal.message } });
    socket.write(
      `HTTP/1.1 ${refusal.status} ${http.STATUS_CODES[refusal.status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
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
  server.on('clientError', answerClientError);
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
