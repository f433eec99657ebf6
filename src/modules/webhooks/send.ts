// One HTTP attempt of a webhook delivery, over node:http(s) so the DNS lookup can be guarded
// (targets.ts). Redirects are not followed: a 3xx is the receiver's answer, not a new target.
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { BlockedTargetError, guardedLookup, hostOf, isNonPublicAddress } from './targets.js';
import net from 'node:net';

/** Characters of the response body kept with the attempt. */
export const RESPONSE_EXCERPT_LENGTH = 1000;
/** Bytes of the response read at most (the rest is discarded). */
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface SendResult {
  /** Null when no HTTP response came back (network error, timeout, blocked target). */
  statusCode: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  error: string | null;
  /** True when the target was refused by the SSRF guard: retrying cannot help. */
  blocked: boolean;
  /** Retry-After of a 429 or 503, in milliseconds. */
  retryAfterMs?: number;
}

export interface SendOptions {
  url: URL;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
  signal?: AbortSignal;
}

/** Retry-After as seconds or an HTTP date → milliseconds from now. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function sendWebhook(options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const host = hostOf(options.url);
  if (!options.allowPrivate && net.isIP(host) && isNonPublicAddress(host)) {
    return Promise.resolve({
      statusCode: null,
      durationMs: 0,
      responseExcerpt: null,
      error: `${host} is a private, loopback or link-local address; webhooks may not target it (webhooks.allowPrivateTargets)`,
      blocked: true,
    });
  }
  const client = options.url.protocol === 'https:' ? https : http;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...result, durationMs: elapsed() });
    };
    const request = client.request(
      options.url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(options.body).toString(),
          'user-agent': 'commerce-webhooks/1',
          ...options.headers,
        },
        timeout: options.timeoutMs,
        signal: options.signal,
        agent: false,
        ...(options.allowPrivate ? {} : { lookup: guardedLookup as never }),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < MAX_RESPONSE_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        const done = () => {
          const text = Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8');
          const status = response.statusCode ?? 0;
          const retryAfter = status === 429 || status === 503 ? parseRetryAfter(response.headers['retry-after']) : undefined;
          finish({
            statusCode: status,
            responseExcerpt: text ? text.slice(0, RESPONSE_EXCERPT_LENGTH) : null,
            error: null,
            blocked: false,
            ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}),
          });
        };
        response.on('end', done);
        response.on('error', (error) => finish({ statusCode: response.statusCode ?? null, responseExcerpt: null, error: error.message, blocked: false }));
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no response within ${options.timeoutMs} ms`)));
    request.on('error', (error: NodeJS.ErrnoException) => {
      const blocked = error instanceof BlockedTargetError || error.code === 'EBLOCKEDTARGET';
      finish({ statusCode: null, responseExcerpt: null, error: error.message || String(error.code ?? error), blocked });
    });
    request.end(options.body);
  });
}
