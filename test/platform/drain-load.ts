// Load for the drain tests: keep-alive clients (one socket each, reused while the server keeps
// it open) and fresh-connection clients (a new connection per request), all on 127.0.0.1, and a
// "balancer" that polls readiness and stops sending once it is not 200, as a load balancer
// takes a target out of rotation. Every request ends as an answer or a network error (a reset,
// a refused connection): the drain tests count the second kind.
import http from 'node:http';

export interface Answer {
  client: string;
  started: number;
  ended: number;
  /** HTTP status, or the network error's code (ECONNRESET, ECONNREFUSED, ...). */
  status: number | string;
  connection: string | undefined;
}

function once(url: string, agent: http.Agent | false, headers: Record<string, string>): Promise<Omit<Answer, 'client' | 'started' | 'ended'>> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent, headers, timeout: 30_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ status: error.code ?? error.message, connection: undefined }));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ status: error.code ?? error.message, connection: undefined }));
  });
}

export interface Load {
  answers: Answer[];
  probes: Answer[];
  /** When the balancer first saw readiness other than 200 (0 while in rotation). */
  outOfRotationAt(): number;
  /** Resolves once every client has stopped (after the balancer took the target out). */
  stopped: Promise<void>;
  /** Stops every client now (the test's own clean-up). */
  stop(): void;
}

/**
 * Runs `keepAlive` + `fresh` sequential clients against `baseUrl + path` and a readiness probe
 * every `probeEveryMs`, until the probe sees anything but 200 (or stop()).
 */
export function startLoad(options: { baseUrl: string; path: string; headers?: Record<string, string>; keepAlive: number; fresh: number; probeEveryMs?: number }): Load {
  const answers: Answer[] = [];
  const probes: Answer[] = [];
  let outAt = 0;
  let stopped = false;
  const inRotation = () => !stopped && outAt === 0;
  const headers = options.headers ?? {};

  async function client(name: string, agent: http.Agent | false): Promise<void> {
    while (inRotation()) {
      const started = Date.now();
      const answer = await once(options.baseUrl + options.path, agent, headers);
      answers.push({ client: name, started, ended: Date.now(), ...answer });
      // Fresh connections one after another would spin a 2-core machine: a short pause.
      if (!agent) await new Promise((r) => setTimeout(r, 5));
    }
    if (agent) agent.destroy();
  }

  async function probe(): Promise<void> {
    while (inRotation()) {
      const started = Date.now();
      const answer = await once(`${options.baseUrl}/api/health/ready`, false, {});
      probes.push({ client: 'probe', started, ended: Date.now(), ...answer });
      if (answer.status !== 200 && outAt === 0) outAt = Date.now();
      else await new Promise((r) => setTimeout(r, options.probeEveryMs ?? 50));
    }
  }

  const clients = [
    ...Array.from({ length: options.keepAlive }, (_, i) => client(`keepalive-${i}`, new http.Agent({ keepAlive: true, maxSockets: 1 }))),
    ...Array.from({ length: options.fresh }, (_, i) => client(`fresh-${i}`, false)),
    probe(),
  ];
  return {
    answers,
    probes,
    outOfRotationAt: () => outAt,
    stopped: Promise.all(clients).then(() => undefined),
    stop: () => {
      stopped = true;
    },
  };
}
