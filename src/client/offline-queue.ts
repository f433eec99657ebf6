// The offline queue: write operations made while offline (or while the service is down) are
// persisted and replayed in order. It follows the spec's "Client offline queue operation" table:
//
//   pending  flush gets 2xx                          → removed
//   pending  network failure                         → pending; drain stops; backoff retry scheduled
//   pending  >= 500, 408, 429 and attempts < max     → pending with backoff (drain stops: order holds)
//   pending  same statuses, attempts reached max     → failed
//   pending  any other 4xx                           → failed; the server's error body in lastError
//   failed   retry(id)                               → pending; attempts reset; flush triggered
//   failed   drop(id)                                → removed
//
// Backoff: min(backoffMs · 2^(attempts−1), 60000) ms. Each operation carries its id in the body
// under `idempotencyField`, so the server (checkout) creates nothing twice when a replay follows
// a response that was lost on the way back.
import { memoryStorage, type QueueStorage } from './storage.js';

export type QueuedStatus = 'pending' | 'failed';

export interface QueuedOperation {
  id: string;
  method: string;
  /** Path under baseUrl, e.g. /api/checkout. */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  status: QueuedStatus;
  attempts: number;
  /** The server's answer (parsed JSON) of the last failing call, or the network error's message. */
  lastError?: unknown;
  lastStatus?: number;
  /** Epoch ms before which the operation is not sent again. */
  notBefore?: number;
  createdAt: number;
}

export interface EnqueueInput {
  path: string;
  /** Default POST. */
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Defaults to a random UUID; it is also the idempotency key. */
  id?: string;
}

export interface OfflineQueueOptions {
  baseUrl: string;
  headers?: Record<string, string> | (() => Record<string, string>);
  storage?: QueueStorage;
  maxAttempts?: number;
  backoffMs?: number;
  autoFlush?: boolean;
  /** Body field that carries the operation id; default idempotencyKey. */
  idempotencyField?: string;
  fetch?: typeof fetch;
}

export interface OfflineQueue {
  /** Resolves once the operation is stored (and, with autoFlush, a flush has been started). */
  enqueue(input: EnqueueInput): Promise<QueuedOperation>;
  /** Replays pending operations in order until the queue is empty or a step must wait. */
  flush(): Promise<void>;
  retry(id: string): Promise<void>;
  drop(id: string): Promise<void>;
  /** Called with a copy of the queue after every change; returns the unsubscribe function. */
  onChange(listener: (operations: QueuedOperation[]) => void): () => void;
  /** The operations now held (copies). */
  list(): Promise<QueuedOperation[]>;
  dispose(): void;
}

const RETRIED = (status: number) => status >= 500 || status === 408 || status === 429;
const BACKOFF_CAP_MS = 60_000;

function randomId(): string {
  const crypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (crypto?.randomUUID) return crypto.randomUUID();
  // React Native without a crypto polyfill: an RFC 4122 v4 shape from Math.random.
  return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (c) => {
    const r = (Math.random() * 16) | 0;
    return (c === 'x' ? r : (r & 0x3) | 0x8).toString(16);
  });
}

/** Online/offline signal where the platform has one (browsers; React Native with a polyfill). */
function onlineEvents(listener: () => void): () => void {
  const target = globalThis as { addEventListener?: (type: string, fn: () => void) => void; removeEventListener?: (type: string, fn: () => void) => void };
  if (typeof target.addEventListener !== 'function') return () => {};
  target.addEventListener('online', listener);
  return () => target.removeEventListener?.('online', listener);
}

function isOffline(): boolean {
  const navigator = (globalThis as { navigator?: { onLine?: boolean } }).navigator;
  return navigator?.onLine === false;
}

export function createOfflineQueue(options: OfflineQueueOptions): OfflineQueue {
  const storage = options.storage ?? memoryStorage();
  const maxAttempts = options.maxAttempts ?? 5;
  const backoffMs = options.backoffMs ?? 1000;
  const autoFlush = options.autoFlush ?? true;
  const field = options.idempotencyField ?? 'idempotencyKey';
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const listeners = new Set<(operations: QueuedOperation[]) => void>();

  let operations: QueuedOperation[] = [];
  let loaded: Promise<void> | null = null;
  let draining: Promise<void> | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let networkFailures = 0;
  let disposed = false;

  const copy = () => operations.map((op) => ({ ...op }));

  function load(): Promise<void> {
    loaded ??= Promise.resolve(storage.load()).then((stored) => {
      // Operations enqueued before the load finished stay after the stored ones.
      operations = [...stored, ...operations];
    });
    return loaded;
  }

  async function changed(): Promise<void> {
    await storage.save(copy());
    for (const listener of listeners) listener(copy());
  }

  function delay(attempts: number): number {
    return Math.min(backoffMs * 2 ** Math.max(0, attempts - 1), BACKOFF_CAP_MS);
  }

  function schedule(ms: number): void {
    if (disposed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      void flush();
    }, ms);
  }

  function bodyOf(op: QueuedOperation): string | undefined {
    if (op.method === 'GET' || op.method === 'HEAD') return undefined;
    if (op.body === undefined || op.body === null) return JSON.stringify({ [field]: op.id });
    if (typeof op.body === 'object' && !Array.isArray(op.body)) return JSON.stringify({ ...op.body, [field]: op.id });
    return JSON.stringify(op.body);
  }

  async function send(op: QueuedOperation): Promise<'done' | 'stop'> {
    const base = typeof options.headers === 'function' ? options.headers() : (options.headers ?? {});
    const headers = { ...base, ...op.headers, 'content-type': 'application/json' };
    let response: Response;
    try {
      response = await doFetch(`${baseUrl}${op.path}`, { method: op.method, headers, body: bodyOf(op) });
    } catch (error) {
      // No answer at all: the operation may or may not have run; its idempotency key makes the
      // replay safe. Attempts count server answers only, so a long outage cannot fail it.
      networkFailures += 1;
      op.lastError = { error: { code: 'NETWORK_ERROR', message: (error as Error)?.message ?? String(error) } };
      op.notBefore = Date.now() + delay(networkFailures);
      await changed();
      schedule(delay(networkFailures));
      return 'stop';
    }
    networkFailures = 0;
    const text = await response.text().catch(() => '');
    if (response.ok) {
      operations = operations.filter((other) => other.id !== op.id);
      await changed();
      return 'done';
    }
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: keep the text */
    }
    op.lastError = body;
    op.lastStatus = response.status;
    if (RETRIED(response.status)) {
      op.attempts += 1;
      if (op.attempts >= maxAttempts) {
        op.status = 'failed';
        op.notBefore = undefined;
        await changed();
        return 'done';
      }
      const retryAfter = Number(response.headers.get('retry-after'));
      const wait = Math.max(delay(op.attempts), Number.isFinite(retryAfter) ? retryAfter * 1000 : 0);
      op.notBefore = Date.now() + wait;
      await changed();
      schedule(wait);
      return 'stop';
    }
    op.attempts += 1;
    op.status = 'failed';
    op.notBefore = undefined;
    await changed();
    return 'done';
  }

  async function drain(): Promise<void> {
    await load();
    while (!disposed) {
      // In order: the first pending operation decides; failed ones wait for retry/drop.
      const next = operations.find((op) => op.status === 'pending');
      if (!next) return;
      const wait = (next.notBefore ?? 0) - Date.now();
      if (wait > 0) {
        schedule(wait);
        return;
      }
      if ((await send(next)) === 'stop') return;
    }
  }

  function flush(): Promise<void> {
    // One drain at a time: concurrent callers share it; a call during a drain runs once more after.
    if (draining) return draining.then(() => (draining ? draining : flush()));
    draining = drain().finally(() => {
      draining = null;
    });
    return draining;
  }

  const stopOnline = autoFlush ? onlineEvents(() => void flush()) : () => {};
  if (autoFlush) void load().then(() => (isOffline() ? undefined : flush()));

  return {
    async enqueue(input) {
      await load();
      const op: QueuedOperation = {
        id: input.id ?? randomId(),
        method: (input.method ?? 'POST').toUpperCase(),
        path: input.path,
        ...(input.body !== undefined ? { body: input.body } : {}),
        ...(input.headers ? { headers: input.headers } : {}),
        status: 'pending',
        attempts: 0,
        createdAt: Date.now(),
      };
      operations.push(op);
      await changed();
      if (autoFlush && !isOffline()) void flush();
      return { ...op };
    },
    flush,
    async retry(id) {
      await load();
      const op = operations.find((other) => other.id === id);
      if (!op) return;
      op.status = 'pending';
      op.attempts = 0;
      op.notBefore = undefined;
      await changed();
      await flush();
    },
    async drop(id) {
      await load();
      const before = operations.length;
      operations = operations.filter((other) => other.id !== id);
      if (operations.length !== before) await changed();
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async list() {
      await load();
      return copy();
    },
    dispose() {
      disposed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      stopOnline();
      listeners.clear();
    },
  };
}
