// The 1 MB body limit, enforced before anything parses the body: a declared Content-Length
// over the limit is refused at once, and a streamed (chunked) body is counted as it arrives
// and cut off at the limit. The buffered body is handed on, so later readers (sofa, Yoga,
// better-auth, the payment webhook's signature check) see the exact bytes.
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
}

const WITHOUT_BODY = new Set(['GET', 'HEAD', 'OPTIONS']);

export async function readBody(request: Request, limit: number): Promise<Request> {
  if (WITHOUT_BODY.has(request.method) || !request.body) return request;
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > limit) throw new BodyTooLargeError();
  // HTTP framing holds a body to its declared length, so only a streamed (chunked) body needs
  // counting; a declared one within the limit passes through untouched.
  if (Number.isFinite(declared)) return request;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError();
    }
    chunks.push(value);
  }
  const body = Buffer.concat(chunks, size);
  const headers = new Headers(request.headers);
  headers.delete('transfer-encoding');
  headers.set('content-length', String(size));
  return new Request(request.url, { method: request.method, headers, body: size ? body : undefined, signal: request.signal });
}
