// http/rest-facade.ts withParsedQuery: the query string is parsed once per request and sofa's
// handler is given its values as params over a URL without it. Every variable must get what
// sofa's own pick (sofa-api router.js pickParam, copied below as the reference) would have
// picked from the request as sent: repeated keys, brackets, empty values, path parameters,
// body fallbacks, keys named like Object.prototype members.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { withParsedQuery, type QueryParser } from '../../src/http/rest-facade.js';

const fromSofa = createRequire(createRequire(import.meta.url).resolve('sofa-api'));
const parse = (fromSofa('qs') as { parse: QueryParser }).parse;

/** sofa-api 0.18 router.js pickParam, as it reads one variable. */
function sofaPick({ name, url, params, body }: { name: string; url: string; params: Record<string, unknown>; body: Record<string, unknown> }): unknown {
  if (name in params) return params[name];
  const searchParams = parse(url.split('?')[1]);
  return searchParams[name] || body[name];
}

const queries = [
  '',
  '?',
  '?limit=20',
  '?limit=20&limit=30',
  '?limit=',
  '?a[]=1&a[]=2',
  '?a[b]=1&a[c]=2',
  '?a[0]=x&a[2]=y',
  `?${Array.from({ length: 25 }, (_, i) => `a=${i}`).join('&')}`,
  '?x=1?y=2',
  '?filter=%7B%22status%22%3A%22active%22%7D',
  '?q=a+b%20c&tags=red,blue',
  '?id=from-query&limit=1',
  '?constructor=1&toString=2&__proto__[polluted]=1&hasOwnProperty=3&valueOf=4&limit=1',
  '?%E2%82%AC=euro&caf%C3%A9=1',
  '?limit=0&cursor=&sort=-createdAt',
];
const names = ['limit', 'cursor', 'sort', 'a', 'x', 'y', 'filter', 'q', 'tags', 'id', 'missing', 'onlyInBody', 'constructor', 'toString', 'valueOf', '€', 'café'];
const bodies: Array<Record<string, unknown>> = [{}, { limit: 5, cursor: 'c-body', a: 'a-body', onlyInBody: true, id: 'id-body', missing: 0 }];
const pathParams: Array<Record<string, string>> = [{}, { id: 'from-path' }];

describe('withParsedQuery', () => {
  it('gives every variable what sofa would pick from the request as sent', () => {
    for (const query of queries) {
      for (const params of pathParams) {
        const request = new Request(`http://localhost/api/catalog/entities${query}`);
        const asSent = request.url;
        const view = withParsedQuery(request, { ...params }, parse) as Request & { params: Record<string, unknown> };
        expect(view.url.includes('?'), query).toBe(false);
        expect(request.url).toBe(asSent);
        for (const body of bodies) {
          for (const name of names) {
            const expected = sofaPick({ name, url: asSent, params: { ...params }, body });
            const actual = sofaPick({ name, url: view.url, params: view.params, body });
            expect(actual, `${query} ${name} ${JSON.stringify(params)} ${JSON.stringify(body)}`).toEqual(expected);
          }
        }
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('hands the body through for a write with a query string', async () => {
    const request = new Request('http://localhost/api/x?dryRun=true', { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    const view = withParsedQuery(request, {}, parse);
    expect(view.method).toBe('POST');
    expect(view.headers.get('content-type')).toBe('application/json');
    expect(view.body).not.toBeNull();
    expect(await view.text()).toBe('{"a":1}');
  });
});
