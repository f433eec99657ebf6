// Truly parallel HTTP requests for lock tests: each request gets its own TCP connection (an agent
// without keep-alive, so no request queues behind another on a shared socket), its headers are
// sent and its socket connected first, and only when every request has reached that barrier are
// the bodies ended, in one tick — so the server reads them all at (nearly) the same moment.
// Loopback only.
import http from 'node:http';

export interface RaceRequest {
  method?: string;
  path: string;
  body?: unknown;
  apiKey?: string;
  bearer?: string;
  headers?: Record<string, string>;
}

export interface RaceResponse {
  status: number;
  body: any;
  text: string;
}

function headersOf(r: RaceRequest, payload: string): Record<string, string> {
  const headers: Record<string, string> = { 'content-length': String(Buffer.byteLength(payload)) };
  if (payload) headers['content-type'] = 'application/json';
  if (r.apiKey) headers['x-api-key'] = r.apiKey;
  if (r.bearer) headers.authorization = `Bearer ${r.bearer}`;
  return { ...headers, ...r.headers };
}

export async function race(baseUrl: string, requests: RaceRequest[]): Promise<RaceResponse[]> {
  const { hostname } = new URL(baseUrl);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(hostname)) throw new Error(`race() targets the loopback only, not ${hostname}`);
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const pending = requests.map((r) => {
    const payload = r.body === undefined ? '' : JSON.stringify(r.body);
    const req = http.request(new URL(r.path, baseUrl), { method: r.method ?? 'POST', headers: headersOf(r, payload), agent });
    const connected = new Promise<void>((resolve, reject) => {
      req.on('error', reject);
      req.on('socket', (socket) => (socket.connecting ? socket.once('connect', () => resolve()) : resolve()));
    });
    const answered = new Promise<RaceResponse>((resolve, reject) => {
      req.on('error', reject);
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : null;
          } catch {
            /* not JSON: keep the text */
          }
          resolve({ status: res.statusCode ?? 0, body, text });
        });
        res.on('error', reject);
      });
    });
    req.flushHeaders();
    return { req, payload, connected, answered };
  });
  try {
    await Promise.all(pending.map((p) => p.connected));
    for (const p of pending) p.req.end(p.payload); // the barrier: every socket is open, now all bodies go
    return await Promise.all(pending.map((p) => p.answered));
  } finally {
    agent.destroy();
  }
}
