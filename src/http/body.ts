// The 1 MB body limit and the body read timeout, enforced before anything parses the body: a
// declared Content-Length over the limit is refused at once, a streamed (chunked) body is
// counted as it arrives and cut off at the limit, and a body that has not fully arrived in time
// is cut off too (finding 17: a trickling body held its request for Node's 300 s). "In time" is
// Apache mod_reqtimeout's rule: the timeout, plus one second per MIN_RATE bytes received, so a
// large upload on a slow but honest link finishes while a trickle does not.
// The buffered body is handed on, so later readers (sofa, Yoga, better-auth, the payment
// webhook's signature check) see the exact bytes and never wait on the client.
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
}

export class BodyTimeoutError extends Error {
  override name = 'BodyTimeoutError';
}

const WITHOUT_BODY = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The bytes readBody buffered, by the request it handed on, and their text once decoded: later
 * readers of a JSON body (the NUL guard, Yoga's request parser) take the text from here instead of
 * cloning the body stream and reading it again (two web streams, a tee and a decode per reader).
 */
const buffered = new WeakMap<Request, { bytes: Buffer; text?: string }>();

/**
 * The body of a request readBody handed on, decoded as `Request.text()` decodes it (UTF-8, a
 * leading byte-order mark dropped, malformed sequences replaced), or null when readBody did not
 * buffer this request's body (none, or another request object).
 */
export function bufferedText(request: Request): string | null {
  const entry = buffered.get(request);
  if (!entry) return null;
  entry.text ??= new TextDecoder().decode(entry.bytes);
  return entry.text;
}

/** Bytes per second a body must keep up, beyond the timeout, to be read to its end. */
export const MIN_BODY_RATE = 64 * 1024;

/** Room for multipart boundaries and small fields on top of the file limit (the body limit of upload requests). */
export const MULTIPART_ALLOWANCE_BYTES = 64 * 1024;

/**
 * The request with its body read (to the limit, in time) and buffered. Given `fetchAPI` (Yoga's),
 * a body other than multipart is handed on in whatwg-node's Request (bufferedRequestClass); a
 * multipart one (an upload) stays in Node's, whose body stream the upload parsers (media/upload.ts
 * busboy, Yoga's formData()) and their 400/413 answers were built on.
 */
export async function readBody(request: Request, limit: number, timeoutMs: number, fetchAPI?: FetchApi): Promise<Request> {
  if (WITHOUT_BODY.has(request.method) || !request.body) return request;
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > limit) throw new BodyTooLargeError();
  if (Number.isSafeInteger(declared) && declared >= 0) return forward(request, await readDeclared(request, declared, timeoutMs), fetchAPI);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let expire: (error: Error) => void = () => undefined;
  const deadline = new Promise<never>((_, reject) => (expire = reject));
  const arm = () => {
    clearTimeout(timer);
    const allowed = timeoutMs + (size / MIN_BODY_RATE) * 1000;
    timer = setTimeout(() => expire(new BodyTimeoutError()), Math.max(0, started + allowed - Date.now()));
  };
  try {
    arm();
    while (true) {
      const { done, value } = await Promise.race([reader.read(), deadline]);
      if (done) break;
      size += value.byteLength;
      arm();
      // HTTP framing holds a declared body to its length; a streamed one is counted here.
      if (size > limit) throw new BodyTooLargeError();
      chunks.push(value);
    }
  } catch (error) {
    // Not awaited: cancelling a stalled client's stream settles only when the socket goes.
    reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return forward(request, Buffer.concat(chunks, size) as Buffer<ArrayBuffer>, fetchAPI);
}

/**
 * A body of declared length: Node's HTTP parser delivers exactly that many bytes (no more: the
 * limit was checked against it), so it is read whole by the request's own collector (whatwg-node
 * gathers the socket's chunks from their 'data' events), without the reader loop above (a web
 * stream over the socket, a read and a race per chunk). The time allowed is the same: the read
 * timeout plus the declared size at MIN_BODY_RATE.
 */
async function readDeclared(request: Request, declared: number, timeoutMs: number): Promise<Buffer<ArrayBuffer>> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BodyTimeoutError()), timeoutMs + (declared / MIN_BODY_RATE) * 1000);
  });
  const read = request.arrayBuffer();
  try {
    const bytes = await Promise.race([read, deadline]);
    // whatwg-node answers with the Buffer it gathered (kept as is); undici with an ArrayBuffer.
    return (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes)) as Buffer<ArrayBuffer>;
  } catch (error) {
    // Settles (or not) when the stalled socket goes: the 408 is sent with `connection: close`.
    // Not cancelled here: destroying the request's stream would take the socket, and the 408, with it.
    read.catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** The request handed on with its body buffered (readBody). */
function forward(request: Request, body: Buffer<ArrayBuffer>, fetchAPI?: FetchApi): Request {
  const size = body.byteLength;
  const multipart = /^multipart\//i.test(request.headers.get('content-type') ?? '');
  const { Request: Forwarded, Headers: ForwardedHeaders } = fetchAPI && !multipart ? { Request: bufferedRequestClass(fetchAPI.Request), Headers: fetchAPI.Headers } : globalThis;
  const headers = new ForwardedHeaders(request.headers);
  headers.delete('transfer-encoding');
  headers.set('content-length', String(size));
  const read = new Forwarded(request.url, { method: request.method, headers, body: size ? body : undefined, signal: request.signal });
  if (size) buffered.set(read, { bytes: body });
  return read;
}

/** The fetch API the buffered request is built with (Yoga's: whatwg-node's on Node). */
export interface FetchApi {
  Request: typeof Request;
  Headers: typeof Headers;
}

const bufferedClasses = new WeakMap<typeof Request, typeof Request>();

/**
 * whatwg-node's Request keeps a Buffer body as bytes (text(), json() and arrayBuffer() answer from
 * them; a stream is made only if someone asks for `body`), where Node's (undici) wraps it in a web
 * ReadableStream at construction and every read pumps that stream. Its text() is
 * Buffer#toString, which keeps a leading byte-order mark: text() and json() here decode as
 * Request.text() does (bufferedText), so what sofa, better-auth and the webhooks read is unchanged.
 */
function bufferedRequestClass(Base: typeof Request): typeof Request {
  let Buffered = bufferedClasses.get(Base);
  if (!Buffered) {
    Buffered = class BufferedRequest extends Base {
      override text(): Promise<string> {
        return Promise.resolve(bufferedText(this) ?? '');
      }
      override json(): Promise<unknown> {
        return this.text().then((text) => JSON.parse(text) as unknown);
      }
    };
    bufferedClasses.set(Base, Buffered);
  }
  return Buffered;
}
