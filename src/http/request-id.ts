// X-Request-Id: honour a sane incoming id (a proxy's or a client's, for tracing across hops),
// otherwise mint a UUID. "Sane" = 1–128 visible ASCII characters from a safe set, so an id can
// never inject into logs or headers.
import { randomUUID } from 'node:crypto';

const SANE_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

export function requestIdFor(request: Request): string {
  const incoming = request.headers.get('x-request-id');
  return incoming && SANE_ID.test(incoming) ? incoming : randomUUID();
}
