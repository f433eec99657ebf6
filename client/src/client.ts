// The typed client. It is openapi-fetch over the `paths` type that openapi-typescript generates
// from /api/doc (client/src/generated/api.ts, `npm run client:generate`). Why openapi-fetch:
// it already answers every call with `{ data, error, response }` (exactly one of data/error
// set), types path/query params, bodies and every status's response from the generated paths,
// weighs a few kB with no dependencies, and only needs a WHATWG `fetch` — so the same code runs
// in browsers, React Native and Node >= 20. Generating one method per operation by hand would
// duplicate what it derives from the types for free. No server module is imported here.
import createFetchClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, paths } from './generated/api.js';

/** The error envelope every non-2xx answer carries. */
export type ApiError = components['schemas']['ErrorResponse'];
export type { paths, components };

export interface ClientOptions {
  /** Origin of the service, e.g. https://shop.example.com (the /api prefix is in the paths). */
  baseUrl: string;
  /** Sent as `x-api-key` (server-side integrations). */
  apiKey?: string;
  /** Sent as `Authorization: Bearer` (mobile apps, Node; `signIn` sets it). */
  bearer?: string;
  /** 'include' sends the session cookie (browser storefront on a trusted origin). */
  credentials?: RequestCredentials;
  headers?: Record<string, string>;
  /** A WHATWG fetch (default: globalThis.fetch). */
  fetch?: typeof fetch;
  /** The longest Retry-After (ms) a 429 is waited out once before surfacing; default 60 s. */
  maxRetryAfterMs?: number;
}

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  [key: string]: unknown;
}

export type AuthResult = { data: { token: string | null; user: SessionUser }; error: undefined; response: Response } | { data: undefined; error: ApiError; response: Response };

export interface CommerceClient extends Client<paths> {
  /** Signs in with email and password; the bearer token is used by every later call. */
  signIn(email: string, password: string): Promise<AuthResult>;
  /** Creates a customer account; with auto sign-in the returned token is stored like signIn's. */
  signUp(input: { email: string; password: string; name: string }): Promise<AuthResult>;
  /** Ends the session on the server and forgets the token. */
  signOut(): Promise<void>;
  setBearer(token: string | undefined): void;
  setApiKey(key: string | undefined): void;
  /** The bearer token in use (store it to resume a session). */
  readonly bearer: string | undefined;
}

/** Seconds or an HTTP date, as RFC 9110 allows; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A fetch that waits out one 429 (Retry-After) and sends the request again. */
export function fetchWithRetryAfter(base: typeof fetch, maxWaitMs: number): typeof fetch {
  return async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    // A body can be read once: keep a copy for the second attempt.
    const spare = request.clone();
    const response = await base(request);
    if (response.status !== 429) return response;
    const wait = retryAfterMs(response.headers.get('retry-after'));
    if (wait === null || wait > maxWaitMs) return response;
    await response.body?.cancel();
    await sleep(wait);
    return base(spare);
  };
}

function envelope(status: number, body: unknown): ApiError {
  const error = (body as { error?: unknown } | null)?.error;
  if (error && typeof error === 'object' && typeof (error as ApiError['error']).code === 'string') return body as ApiError;
  // An answer not in the envelope (a proxy's error page, a flat { code, message }): the code the
  // server's catalogue gives that status, so `error.code` stays within the documented codes.
  const flat = body as { code?: unknown; message?: unknown } | null;
  return {
    error: {
      code: CODE_BY_STATUS[status] ?? (status >= 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST'),
      message: typeof flat?.message === 'string' ? flat.message : `Request failed with status ${status}`,
    },
  };
}

const CODE_BY_STATUS: Record<number, ApiError['error']['code']> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'VALIDATION_FAILED',
  429: 'TOO_MANY_REQUESTS',
  431: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
  503: 'SERVICE_UNAVAILABLE',
};

export function createClient(options: ClientOptions): CommerceClient {
  let bearer = options.bearer;
  let apiKey = options.apiKey;
  const baseFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const fetchImpl = fetchWithRetryAfter(baseFetch, options.maxRetryAfterMs ?? 60_000);
  const baseUrl = options.baseUrl.replace(/\/+$/, '');

  const auth: Middleware = {
    onRequest({ request }) {
      if (apiKey && !request.headers.has('x-api-key')) request.headers.set('x-api-key', apiKey);
      if (bearer && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${bearer}`);
      return request;
    },
  };
  const api = createFetchClient<paths>({
    baseUrl,
    headers: options.headers,
    credentials: options.credentials,
    fetch: fetchImpl,
  });
  api.use(auth);

  async function authCall(path: string, body: unknown): Promise<AuthResult> {
    const headers = new Headers(options.headers);
    headers.set('content-type', 'application/json');
    if (apiKey) headers.set('x-api-key', apiKey);
    if (bearer) headers.set('authorization', `Bearer ${bearer}`);
    const response = await fetchImpl(`${baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body), credentials: options.credentials });
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = { message: text };
    }
    if (!response.ok) return { data: undefined, error: envelope(response.status, parsed), response };
    const data = parsed as { token?: string | null; user: SessionUser };
    if (data.token) bearer = data.token;
    return { data: { token: data.token ?? null, user: data.user }, error: undefined, response };
  }

  const client = Object.assign(api, {
    signIn: (email: string, password: string) => authCall('/api/auth/sign-in/email', { email, password }),
    signUp: (input: { email: string; password: string; name: string }) => authCall('/api/auth/sign-up/email', input),
    async signOut() {
      if (bearer || options.credentials === 'include') await authCall('/api/auth/sign-out', {});
      bearer = undefined;
    },
    setBearer(token: string | undefined) {
      bearer = token;
    },
    setApiKey(key: string | undefined) {
      apiKey = key;
    },
  });
  // A getter (Object.assign would copy today's value once).
  Object.defineProperty(client, 'bearer', { get: () => bearer, enumerable: true });
  return client as CommerceClient;
}
