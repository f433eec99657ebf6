// The offline queue: write operations made while offline (or while the service is down) are
// persisted and replayed in order. It follows the spec's "Client offline queue operation" table:
//
//   pending  flush gets 2xx                          → removed; the answer goes to the listeners
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
//
// Operations are typed by the contract (generated/api.ts): `path` must be a path of /api/doc
// that has the method, `params.path` fills its `{placeholders}`, and `body` is that operation's
// JSON request body — a typo'd path or body field does not compile. The answer of a replay is
// handed to `onChange` listeners and to the `result` promise of `enqueue`, typed by operation,
// so an app does not have to refetch the order its queued checkout created.
import type { components, paths } from './generated/api.js';
import { memoryStorage, type QueueStorage } from './storage.js';

export type QueuedStatus = 'pending' | 'failed';
export type QueueMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The contract's operation for a path and method. */
type Operation<P extends keyof paths, M extends QueueMethod> = paths[P][Lowercase<M>];

/** Paths of the contract that answer this method. */
export type QueuePath<M extends QueueMethod> = {
  [P in keyof paths]: paths[P] extends { [K in Lowercase<M>]: infer O } ? ([O] extends [never] ? never : P) : never;
}[keyof paths];

type JsonBodyPart<O> = O extends { requestBody: { content: { 'application/json': infer B } } }
  ? { body: B }
  : O extends { requestBody?: { content: { 'application/json': infer B } } }
    ? { body?: B }
    : { body?: never };

type ParamsPart<O> = O extends { parameters: { path: infer PP } } ? { params: { path: PP; query?: QueryOf<O> } } : { params?: { query?: QueryOf<O> } };
type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? ([Q] extends [never] ? never : Q) : never;

type SuccessStatus = 200 | 201 | 202 | 204;
/** The JSON a 2xx answer of the operation carries (undefined for 204). */
export type QueueSuccess<O> = O extends { responses: infer R }
  ? { [S in keyof R & SuccessStatus]: R[S] extends { content: { 'application/json': infer J } } ? J : undefined }[keyof R & SuccessStatus]
  : unknown;

export type EnqueueInput<P extends QueuePath<M>, M extends QueueMethod = 'POST'> = {
  path: P;
  /** Default POST. */
  method?: M;
  headers?: Record<string, string>;
  /** Defaults to a random UUID; it is also the idempotency key. */
  id?: string;
} & JsonBodyPart<Operation<P, M>> &
  ParamsPart<Operation<P, M>>;

/** What the server answered when an operation left the pending state. */
export type QueueAnswer<T = unknown> =
  | { id: string; ok: true; status: number; data: T }
  | { id: string; ok: false; status: number; error: components['schemas']['ErrorResponse'] | unknown }
  | { id: string; ok: false; status: 0; dropped: true };

export interface QueuedOperation {
  id: string;
  method: string;
  /** Path of the contract under baseUrl, e.g. /api/carts/{id}/items (filled from params.path). */
  path: string;
  params?: { path?: Record<string, string | number>; query?: Record<string, unknown> };
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

/** The stored operation plus its outcome: success (with the typed answer), failure or drop. */
export interface EnqueuedOperation<T> extends QueuedOperation {
  result: Promise<QueueAnswer<T>>;
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

export type QueueListener = (operations: QueuedOperation[], answer?: QueueAnswer) => void;

export interface OfflineQueue {
  /** Resolves once the operation is stored (and, with autoFlush, a flush has been started). */
  enqueue<P extends QueuePath<M>, M extends QueueMethod = 'POST'>(input: EnqueueInput<P, M>): Promise<EnqueuedOperation<QueueSuccess<Operation<P, M>>>>;
  /** Replays pending operations in order until the queue is empty or a step must wait. */
  flush(): Promise<void>;
  retry(id: string): Promise<void>;
  drop(id: string): Promise<void>;
  /**
   * The next outcome of an operation held now (e.g. one restored from storage after a restart):
   * its 2xx answer, its failure, or its drop. Undefined when no such operation is held.
   */
  result(id: string): Promise<QueueAnswer> | undefined;
  /**
   * Called with a copy of the queue after every change, and with the server's answer when the
   * change is an operation succeeding or failing; returns the unsubscribe function.
   */
  onChange(listener: QueueListener): () => void;
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

/** `/api/carts/{id}/items` + { path: { id } } (+ query) → the request URL's path and search. */
export function operationUrl(op: Pick<QueuedOperation, 'path' | 'params'>): string {
  const filled = op.path.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const value = op.params?.path?.[name];
    return value === undefined ? whole : encodeURIComponent(String(value));
  });
  const query = op.params?.query;
  if (!query) return filled;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  }
  const text = search.toString();
  return text ? `${filled}?${text}` : filled;
}

function parse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function createOfflineQueue(options: OfflineQueueOptions): OfflineQueue {
  const storage = options.storage ?? memoryStorage();
  const maxAttempts = options.maxAttempts ?? 5;
  const backoffMs = options.backoffMs ?? 1000;
  const autoFlush = options.autoFlush ?? true;
  const field = options.idempotencyField ?? 'idempotencyKey';
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const listeners = new Set<QueueListener>();
  // Promises waiting for an operation's next outcome, by operation id.
  const waiters = new Map<string, Array<(answer: QueueAnswer) => void>>();

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

  function wait(id: string): Promise<QueueAnswer> {
    return new Promise((resolve) => {
      const list = waiters.get(id) ?? [];
      list.push(resolve);
      waiters.set(id, list);
    });
  }

  async function changed(answer?: QueueAnswer): Promise<void> {
    await storage.save(copy());
    if (answer) {
      const waiting = waiters.get(answer.id) ?? [];
      waiters.delete(answer.id);
      for (const resolve of waiting) resolve(answer);
    }
    for (const listener of listeners) listener(copy(), answer);
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
      response = await doFetch(`${baseUrl}${operationUrl(op)}`, { method: op.method, headers, body: bodyOf(op) });
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
    const body = parse(await response.text().catch(() => ''));
    if (response.ok) {
      operations = operations.filter((other) => other.id !== op.id);
      await changed({ id: op.id, ok: true, status: response.status, data: body });
      return 'done';
    }
    op.lastError = body ?? null;
    op.lastStatus = response.status;
    op.attempts += 1;
    if (RETRIED(response.status) && op.attempts < maxAttempts) {
      const retryAfter = Number(response.headers.get('retry-after'));
      const pause = Math.max(delay(op.attempts), Number.isFinite(retryAfter) ? retryAfter * 1000 : 0);
      op.notBefore = Date.now() + pause;
      await changed();
      schedule(pause);
      return 'stop';
    }
    // A refusal (4xx) or a retryable status that used up its attempts: failed, the next one runs.
    op.status = 'failed';
    op.notBefore = undefined;
    await changed({ id: op.id, ok: false, status: response.status, error: op.lastError });
    return 'done';
  }

  async function drain(): Promise<void> {
    await load();
    while (!disposed) {
      // In order: the first pending operation decides; failed ones wait for retry/drop.
      const next = operations.find((op) => op.status === 'pending');
      if (!next) return;
      const pause = (next.notBefore ?? 0) - Date.now();
      if (pause > 0) {
        schedule(pause);
        return;
      }
      if ((await send(next)) === 'stop') return;
    }
  }

  function flush(): Promise<void> {
    // One drain at a time: concurrent callers share it; a call during a drain runs once more after.
    if (draining !== null) return draining.then(() => draining ?? flush());
    draining = drain().finally(() => {
      draining = null;
    });
    return draining;
  }

  const stopOnline = autoFlush ? onlineEvents(() => void flush()) : () => {};
  if (autoFlush) void load().then(() => (isOffline() ? undefined : flush()));

  const queue: OfflineQueue = {
    async enqueue(input) {
      await load();
      const { params, body } = input as { params?: QueuedOperation['params']; body?: unknown };
      const op: QueuedOperation = {
        id: input.id ?? randomId(),
        method: (input.method ?? 'POST').toUpperCase(),
        path: input.path,
        ...(params ? { params } : {}),
        ...(body !== undefined ? { body } : {}),
        ...(input.headers ? { headers: input.headers } : {}),
        status: 'pending',
        attempts: 0,
        createdAt: Date.now(),
      };
      operations.push(op);
      // Registered before anything is sent: a fast answer cannot be missed.
      const result = wait(op.id);
      await changed();
      if (autoFlush && !isOffline()) void flush();
      return { ...op, result } as Awaited<ReturnType<OfflineQueue['enqueue']>>;
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
      if (operations.length !== before) await changed({ id, ok: false, status: 0, dropped: true });
    },
    result(id) {
      return operations.some((op) => op.id === id) ? wait(id) : undefined;
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
  return queue;
}
