// A real HTTP receiver on 127.0.0.1 for webhook tests. It verifies the Standard Webhooks
// signature with its own code (node:crypto, written from the standard, not from our sender) and
// answers from a per-path script of responses.
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: any;
  /** The signature verified against the endpoint's secret (when the test told the receiver the secret). */
  verified: boolean | null;
}

export interface Reply {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Responses for a path, used in order; the last one repeats. Default 200 "ok". */
  script(path: string, replies: Reply[]): void;
  /** The secret to verify a path's requests with. */
  secret(path: string, secret: string): void;
  close(): Promise<void>;
}

/** Standard Webhooks verification, as a receiver implements it. */
export function verifyStandardWebhook(secret: string, headers: http.IncomingHttpHeaders, body: string): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signature = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signature.split(' ').some((part) => {
    const [version, value] = part.split(',');
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** delayMs: how long each answer takes (fault tests want deliveries in flight when they kill a worker). */
export async function startReceiver(options: { delayMs?: number } = {}): Promise<Receiver> {
  const received: Received[] = [];
  const scripts = new Map<string, Reply[]>();
  const secrets = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const secret = secrets.get(path);
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {
        /* keep null */
      }
      received.push({ path, headers: req.headers, body, json, verified: secret ? verifyStandardWebhook(secret, req.headers, body) : null });
      const script = scripts.get(path) ?? [];
      const reply = (script.length > 1 ? script.shift() : script[0]) ?? { status: 200, body: 'ok' };
      const answer = () => {
        res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
        res.end(reply.body ?? '');
      };
      if (options.delayMs) setTimeout(answer, options.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    script: (path, replies) => void scripts.set(path, [...replies]),
    secret: (path, secret) => void secrets.set(path, secret),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
