// Yoga's request parser reads a JSON body from the bytes the HTTP layer already buffered
// (http/body.ts readBody, which also holds every body to the size limit and the read timeout),
// instead of reading the request's body stream again: on a small query that stream read (web
// streams, a TransformStream Yoga's own size limit pipes it through, a decode) was a good part
// of a /graphql request's CPU. The parser itself stays Yoga's (its checks and its 400 answers);
// only what it reads the body from changes.
import type { Plugin } from 'graphql-yoga';
import { bufferedText } from '../http/body.js';

/** Yoga's test for a JSON request (request-parser/post-json.ts and isContentTypeMatch). */
function isJsonContentType(header: string | null): boolean {
  const type = header?.split(',')[0];
  if (!type) return false;
  return ['application/json', 'application/graphql+json'].some((expected) => type === expected || type.startsWith(`${expected};`));
}

export function useBufferedJsonBody(): Plugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser }) {
      // Yoga's parsers were chosen before user plugins run: the JSON one reads only request.json().
      if (!requestParser || request.method !== 'POST' || !isJsonContentType(request.headers.get('content-type'))) return;
      const text = bufferedText(request);
      if (text === null) return;
      // JSON.parse of the same text throws what Request.json() rejects with (Yoga reports its name and message).
      setRequestParser(() => requestParser({ json: () => JSON.parse(text) } as unknown as Request));
    },
  };
}
