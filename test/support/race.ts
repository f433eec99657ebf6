// Requests raced truly in parallel: each on its own TCP connection (no agent, no keep-alive
// pool that would queue them), every connection opened and its headers sent first, then all
// bodies written in one tick (the barrier), so the server sees them at once. 127.0.0.1 only.
import http from 'node:http';

export interface RaceRequest {
  path: string;
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RaceResponse {
  status: number;
  body: any;
}

export async function race(baseUrl: string, requests: RaceRequest[]): Promise<RaceResponse[]> {
  const { port, hostname } = new URL(baseUrl);
  if (hostname !== '127.0.0.1' && hostname !== 'localhost') throw new Error(`race() targets 127.0.0.1 only, not ${hostname}`);
  const pending = requests.map((r) => {
    const payload = r.body === undefined ? '' : JSON.stringify(r.body);
    const req = http.request({
      host: '127.0.0.1',
      port: Number(port),
      path: r.path,
      method: r.method ?? 'POST',
      agent: false,
      headers: { connection: 'close', 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...r.headers },
    });
    req.flushHeaders();
    const connected = new Promise<void>((resolve, reject) => {
      req.once('error', reject);
      req.once('socket', (socket) => (socket.connecting ? socket.once('connect', () => resolve()) : resolve()));
    });
    const answered = new Promise<RaceResponse>((resolve, reject) => {
      req.once('error', reject);
      req.once('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : null;
          } catch {
            /* not JSON: keep the text */
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      });
    });
    return { req, payload, connected, answered };
  });
  await Promise.all(pending.map((p) => p.connected));
  for (const p of pending) p.req.end(p.payload);
  return Promise.all(pending.map((p) => p.answered));
}
