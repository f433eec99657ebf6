// The NUL rule of http/input-guard.ts for GraphQL multipart requests (graphql-multipart-request-
// spec: an `operations` JSON part and file parts). The edge guard reads JSON and form bodies but
// leaves multipart to its parser, so an upload is not read twice; a NUL in the variables of a
// multipart `mediaUpload` then reached PostgreSQL (22021) and answered INTERNAL_ERROR. Once Yoga
// has parsed the request, its variables and string literals are checked here: VALIDATION_FAILED
// naming where, before anything runs.
import { Kind, visit, type DocumentNode, type ExecutionArgs } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { RequestContext } from '../context.js';
import type { AppError } from '../errors.js';
import { findNul, nulIssue } from '../http/input-guard.js';

function literalWithNul(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    [Kind.STRING](node) {
      if (node.value.includes('\u0000')) found = true;
    },
  });
  return found;
}

/** The NUL refusal of a multipart request's variables or literals, or null (REST routes check it too). */
export function multipartNulRefusal(args: Pick<ExecutionArgs, 'contextValue' | 'variableValues' | 'document'>): AppError | null {
  const ctx = args.contextValue as RequestContext;
  if (!/^multipart\//i.test(ctx.request?.headers.get('content-type') ?? '')) return null;
  const inVariables = findNul(args.variableValues ?? {});
  if (inVariables) return nulIssue(`variables.${inVariables}`);
  if (literalWithNul(args.document)) return nulIssue('query');
  return null;
}

export function useMultipartNulGuard(): Plugin<RequestContext> {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const refusal = multipartNulRefusal(args as ExecutionArgs);
      if (refusal) setResultAndStopExecution({ errors: [refusal] });
    },
  };
}
