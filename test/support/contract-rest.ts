// The REST contract harness: every answer a test receives from /api is validated against the
// operation of /api/doc (the document the server itself serves) for that method, path and
// status. An undocumented status of a documented route, a content type the operation does not
// declare, or a JSON body its schema refuses throws in the test that made the call, naming the
// path, the status and Ajv's errors. So the document cannot drift from the server.
//
// OpenAPI 3.0 is not JSON Schema: `nullable: true` is turned into `anyOf [schema, null]` before
// Ajv sees the document, formats come from ajv-formats (int32, int64, binary...), and Ajv runs
// with strict off so documentation keywords (example, deprecated...) pass.
import http from 'node:http';
import * as formatsModule from 'ajv-formats';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { countContract, logContractMismatch } from './contract-counts.js';

type Json = Record<string, unknown>;

/**
 * Answers not validated, each for a stated reason. Everything else under /api is checked; a path
 * the document does not list must answer the documented 404 error body.
 */
const UNDOCUMENTED: Array<{ pattern: RegExp; method?: string; reason: string }> = [
  // CORS preflights are answered before routing, for any path, as the Fetch standard defines
  // them (204 with the Access-Control-* headers, or 403 for an untrusted origin): not operations.
  { pattern: /^\/api\//, method: 'OPTIONS', reason: 'CORS preflight' },
  // better-auth serves more than the four identity routes /api/doc lists (the exposed-endpoint
  // tests call its internals on purpose to prove they are closed or behave); their bodies are
  // better-auth's, not this API's contract.
  { pattern: /^\/api\/auth\//, reason: 'better-auth internals beyond the documented identity routes' },
  // The explorer's script bundle is a static asset served beside /api/reference.
  { pattern: /^\/api\/reference\/standalone\.js$/, reason: 'static asset of the API explorer' },
];

interface Route {
  template: string;
  pattern: RegExp;
  literals: number;
  item: Json;
}

export interface RestAnswer {
  method: string;
  /** Path and query string, as the test requested it. */
  path: string;
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

const addFormats = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as (ajv: Ajv) => Ajv;

/** OpenAPI 3.0 `nullable` as JSON Schema: the schema, or null. */
function jsonSchemaOf(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(jsonSchemaOf);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = jsonSchemaOf(value);
  if (out.nullable === true) {
    delete out.nullable;
    const { description, ...rest } = out;
    return { anyOf: [rest, { type: 'null' }], ...(description ? { description } : {}) };
  }
  return out;
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

function mediaType(headers: Headers): string {
  return (headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 12)
    .map((e) => `  ${e.instancePath || '(body)'} ${e.message}${e.params && Object.keys(e.params).length ? ' ' + JSON.stringify(e.params) : ''}`)
    .join('\n');
}

/**
 * GET /api/doc of the server at `baseUrl`, sent from another loopback address (127.0.0.2): the
 * server rate-limits anonymous callers per client address, and tests of those budgets count
 * every request made from 127.0.0.1, so loading the document must not spend their points.
 */
export function documentOf(baseUrl: string): Promise<Json> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${baseUrl}/api/doc`, { localAddress: '127.0.0.2' }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        if (response.statusCode !== 200) reject(new Error(`contract harness: GET /api/doc answered ${response.statusCode}: ${text.slice(0, 200)}`));
        else resolve(JSON.parse(text) as Json);
      });
    });
    request.on('error', reject);
  });
}

export interface RestContract {
  /** Validates one answer; throws when it breaks the document. */
  check(answer: RestAnswer): Promise<void>;
}

/** `count: false` keeps the harness's own tests (answers broken on purpose) out of the run's counts. */
export function restContract(loadDocument: () => Promise<Json>, options: { count?: boolean } = {}): RestContract {
  const tally = (ok: boolean) => {
    if (options.count !== false) countContract('rest', ok);
  };
  let loaded: Promise<{ ajv: Ajv; routes: Route[]; doc: Json }> | undefined;
  const validators = new Map<string, ValidateFunction>();

  async function load() {
    const doc = await loadDocument();
    const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, validateFormats: true });
    addFormats(ajv);
    ajv.addSchema(jsonSchemaOf(doc) as Json, 'doc');
    const routes = Object.entries(doc.paths as Record<string, Json>).map(([template, item]) => {
      const segments = template.split('/');
      const source = segments.map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
      return { template, pattern: new RegExp(`^${source}/?$`), literals: segments.filter((s) => s && !s.startsWith('{')).length, item };
    });
    return { ajv, routes, doc };
  }

  function validator(ajv: Ajv, pointer: string): ValidateFunction {
    let validate = validators.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `doc#${pointer}` });
      validators.set(pointer, validate);
    }
    return validate;
  }

  function fail(answer: RestAnswer, where: string, detail: string): never {
    tally(false);
    if (options.count !== false) logContractMismatch({ method: answer.method, path: answer.path, status: answer.status, where, detail, body: answer.text.slice(0, 500) });
    throw new Error(`REST answer breaks /api/doc: ${answer.method} ${answer.path} -> ${answer.status} (${where})\n${detail}`);
  }

  return {
    async check(answer) {
      const pathname = answer.path.split('?')[0]!;
      if (!pathname.startsWith('/api/') && pathname !== '/api') return;
      loaded ??= load();
      const { ajv, routes } = await loaded;
      // HEAD is GET without the body (RFC 9110): the GET operation documents it.
      const head = answer.method.toUpperCase() === 'HEAD';
      const method = head ? 'get' : answer.method.toLowerCase();
      // The most literal template wins (/api/orders/refunds/cap before /api/orders/{id}/...).
      const route = routes.filter((r) => r.pattern.test(pathname) && r.item[method]).sort((a, b) => b.literals - a.literals)[0];
      if (!route) {
        if (UNDOCUMENTED.some((u) => u.pattern.test(pathname) && (!u.method || u.method === answer.method.toUpperCase()))) return;
        // Not a documented operation: the document promises 404 with the error body; the edge's
        // checks that run before routing (NUL characters 422, body limit 413, rate limit 429,
        // malformed body 400, request line and headers above the limit 431) answer the same error body first.
        if (![400, 404, 413, 422, 429, 431].includes(answer.status))
          fail(answer, 'no such operation in /api/doc', `an undocumented path or method must answer 404 (or an edge 4xx), got ${answer.status}`);
        const validate = validator(ajv, '/components/schemas/ErrorResponse');
        if (!validate(answer.body)) fail(answer, 'undocumented route: ErrorResponse', describeErrors(validate.errors));
        tally(true);
        return;
      }
      const operation = route.item[method] as Json;
      const responses = operation.responses as Record<string, Json>;
      const key = [String(answer.status), `${String(answer.status)[0]}XX`, 'default'].find((k) => responses[k]);
      if (!key) fail(answer, `${method.toUpperCase()} ${route.template}`, `status ${answer.status} is not documented (documented: ${Object.keys(responses).join(', ')})`);
      const content = responses[key]!.content as Record<string, Json> | undefined;
      const pointer = `/paths/${escapePointer(route.template)}/${method}/responses/${key}`;
      if (head) {
        tally(true);
        return;
      }
      if (!content) {
        if (answer.text.length) fail(answer, pointer, `no body is documented, got ${mediaType(answer.headers) || 'a body'}`);
        tally(true);
        return;
      }
      const type = mediaType(answer.headers);
      const declared = Object.keys(content).find((t) => t.toLowerCase() === type) ?? Object.keys(content).find((t) => t === '*/*');
      if (!declared) fail(answer, pointer, `content type ${type || '(none)'} is not documented (documented: ${Object.keys(content).join(', ')})`);
      if (declared.endsWith('json')) {
        const validate = validator(ajv, `${pointer}/content/${escapePointer(declared)}/schema`);
        if (!validate(answer.body)) fail(answer, `${method.toUpperCase()} ${route.template} ${key}`, describeErrors(validate.errors));
      }
      tally(true);
    },
  };
}
