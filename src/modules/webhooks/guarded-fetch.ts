// A `fetch` for calls to addresses users configure (connected stores): over node:http(s) with
// the same socket-level guard as webhook delivery (targets.ts: the address checked is the
// address connected to, so a name re-pointed at 127.0.0.1 after a check is still refused), and
// redirects never followed — a 3xx comes back as the answer (like `redirect: 'manual'`, but with
// its status readable), so a store cannot send the request, and the key in its headers, on to
// another host. The global fetch could do neither: it resolves the name again by itself and
// follows redirects, keeping custom headers such as x-api-key.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { Readable } from 'node:stream';
import { BlockedTargetError, guardedLookup, hostOf, isNonPublicAddress } from './targets.js';

export interface GuardedFetchOptions {
  /** Private, loopback and link-local targets allowed (an operator setting). */
  allowPrivate: boolean;
  /** Longest wait for the answer's headers. */
  timeoutMs: number;
}

/** Statuses whose answer has no body (the Response constructor refuses one). */
const NO_BODY = new Set([204, 205, 304]);

export function guardedFetch(options: GuardedFetchOptions): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BlockedTargetError(`${url.protocol} URLs are not fetched`);
    // An address in the URL is connected to without a lookup: check it here.
    const host = hostOf(url);
    if (!options.allowPrivate && net.isIP(host) && isNonPublicAddress(host))
      throw new BlockedTargetError(`${host} is a private, loopback or link-local address; it may not be reached`);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const headers: Record<string, string> = Object.fromEntries(request.headers);
    if (body) headers['content-length'] = String(body.length);
    const signal = AbortSignal.any([request.signal, AbortSignal.timeout(options.timeoutMs)]);
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<Response>((resolve, reject) => {
      const req = client.request(url, { method: request.method, headers, signal, agent: false, ...(options.allowPrivate ? {} : { lookup: guardedLookup as never }) }, (res) => {
        const answer = new Headers();
        // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) answer.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        const status = res.statusCode ?? 502;
        const empty = NO_BODY.has(status) || request.method === 'HEAD';
        if (empty) res.resume();
        resolve(new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), { status, statusText: res.statusMessage ?? '', headers: answer }));
      });
      req.on('error', (error: NodeJS.ErrnoException) => reject(error.code === 'EBLOCKEDTARGET' ? new BlockedTargetError(error.message) : error));
      req.end(body);
    });
  };
}
