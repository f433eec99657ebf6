// Truly parallel requests for lock tests: each on its own TCP connection (no keep-alive, so no
// request waits behind another on a shared socket), and a barrier: every connection is open and
// every request's headers are held back until all are ready, then all are sent in one tick.
import http from 'node:http';

export interface RaceRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface RaceAnswer {
  status: number;
  body: any;
  text: string;
}

export async function race(baseUrl: string, requests: RaceRequest[]): Promise<RaceAnswer[]> {
  const base = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const pending = requests.map((spec) => {
    const payload = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const req = http.request({
      host: base.hostname,
      port: base.port,
      method: spec.method ?? (payload === undefined ? 'GET' : 'POST'),
      path: spec.path,
      agent,
      headers: { ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }), ...spec.headers },
    });
    const connected = new Promise<void>((resolve, reject) => {
      req.once('socket', (socket) => (socket.connecting ? socket.once('connect', () => resolve()) : resolve()));
      req.once('error', reject);
    });
    const answered = new Promise<RaceAnswer>((resolve, reject) => {
      req.once('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : null;
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode ?? 0, body, text });
        });
      });
      req.once('error', reject);
    });
    return { req, payload, connected, answered };
  });
  // The barrier: Node sends a request's headers with its first write, so nothing has left yet.
  await Promise.all(pending.map((p) => p.connected));
  for (const p of pending) p.req.end(p.payload);
  try {
    return await Promise.all(pending.map((p) => p.answered));
  } finally {
    agent.destroy();
  }
}
