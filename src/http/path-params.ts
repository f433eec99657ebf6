// Path parameters of REST routes, checked against the types their operation declares before
// sofa runs. sofa hands a path segment to the GraphQL field as is: an id that is not a UUID
// either reached the database (a 500 on a uuid column) or failed in the UUID scalar with a
// message naming no parameter. Here it is 422 VALIDATION_FAILED with one detail per parameter.
import { z } from 'zod';
import type { FieldIssue } from '../errors.js';
import { operations, restPathArg, type RegisteredOperation } from '../graphql/operation.js';
import { unwrap } from '../graphql/zod-args.js';

/** Where sofa mounts the REST routes. */
export const REST_BASE_PATH = '/api';

export interface CompiledRoute {
  method: string;
  pattern: RegExp;
  /** Names of the path parameters, in the order of the pattern's groups. */
  params: string[];
  operation: RegisteredOperation;
}

/** `/settings/:group` → /^\/api\/settings\/([^/]+)\/?$/ with params ['group']. */
export function compileRoute(basePath: string, operation: RegisteredOperation): CompiledRoute {
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  const path = operation.rest!.path;
  const source = (basePath + path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\/:([A-Za-z0-9_]+)/g, '/([^/]+)');
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  const params = [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
  return { method: operation.rest!.method, pattern: new RegExp(`^${source}/?$`), params, operation };
}

const NUL_MESSAGE = 'must not contain NUL (U+0000) characters';
// Parameters typed as numbers or booleans are converted by their GraphQL type first: only text
// types are checked against the raw segment here.
const TEXT_TYPES = new Set(['string', 'enum', 'literal', 'template_literal']);

/** Every path parameter of the request that its declared type refuses (empty when all pass). */
export function pathParamIssues(route: CompiledRoute, pathname: string): FieldIssue[] {
  const raw = route.pattern.exec(pathname)?.slice(1) ?? [];
  const issues: FieldIssue[] = [];
  route.params.forEach((name, i) => {
    let value: string;
    try {
      value = decodeURIComponent(raw[i] ?? '');
    } catch {
      issues.push({ field: name, message: 'is not valid percent-encoding' });
      return;
    }
    if (value.includes('\u0000')) {
      issues.push({ field: name, message: NUL_MESSAGE });
      return;
    }
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    const schema = route.operation.input.shape[restPathArg(route.operation.rest!, name)];
    if (!schema || !TEXT_TYPES.has((unwrap(schema).inner._zod.def as { type: string }).type)) return;
    const result = z.safeParse(schema, value);
    if (!result.success) for (const issue of result.error.issues) issues.push({ field: name, message: issue.message });
  });
  return issues;
}

let compiled: { size: number; routes: CompiledRoute[] } | undefined;

/** The declared path parameter a NUL (`%00`) sits in, for the edge's NUL guard to name it. */
export function nulPathParam(method: string, pathname: string): string | undefined {
  if (compiled?.size !== operations.size) {
    const routes = [...operations.values()].filter((op) => op.rest).map((op) => compileRoute(REST_BASE_PATH, op));
    compiled = { size: operations.size, routes };
  }
  const route = compiled.routes.find((r) => r.method === method && r.pattern.test(pathname));
  const raw = route?.pattern.exec(pathname)?.slice(1) ?? [];
  return route?.params.find((_name, i) => /%00/.test(raw[i] ?? ''));
}
