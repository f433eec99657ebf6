// One execution outside Yoga's envelop pipeline, as the REST facade (http/rest-facade.ts) and
// /graphql's fast lane (fast-lane.ts) run it. Both used to spell the same sequence out, each with
// its own copy of the cache release; one function keeps them in step with each other and with
// the envelop plugins of /graphql (yoga.ts), which call the same functions in the same order:
//   multipart NUL rule (multipart-nul.ts) → execution guards (guards.ts: introspection, cost,
//   rate charge, a slot for a heavy operation) → observation starts (graphql-observer.ts) → the document compiled once
//   (jit.ts; the caller's executor until it is) → per-request caches released
//   (request-caches.ts) → error masking (error-masking.ts) → observation done.
// What differs between the callers stays with them: the facade's `{ data }` wrapping, the lane's
// Yoga masking and result processing.
import type { ExecutionArgs, ExecutionResult } from 'graphql';
import type { RequestContext } from '../context.js';
import type { executionObserver } from '../observability/graphql-observer.js';
import { maskedResult } from './error-masking.js';
import { admitExecution, type GuardOptions } from './guards.js';
import type { createCompiler } from './jit.js';
import { multipartNulRefusal } from './multipart-nul.js';
import { releaseRequestCaches } from './request-caches.js';

export interface CompiledExecutionOptions {
  guards: GuardOptions;
  /** Compiled execution (config graphql.jit), or null to run every document on `fallback`. */
  compiler: ReturnType<typeof createCompiler> | null;
  observe: ReturnType<typeof executionObserver>;
  /** The executor for a document the compiler does not take (yet): each caller names its own. */
  fallback(args: ExecutionArgs): Promise<ExecutionResult> | ExecutionResult;
}

/** Runs one operation with /graphql's rules around it; the answer is masked for the request. */
export type CompiledExecution = (args: ExecutionArgs) => Promise<ExecutionResult>;

export function compiledExecution(options: CompiledExecutionOptions): CompiledExecution {
  return async (args) => {
    const ctx = args.contextValue as RequestContext;
    const nul = multipartNulRefusal(args);
    const { refusal, release } = nul ? { refusal: nul, release: null } : await admitExecution(args, options.guards);
    // A refused operation is masked but not observed, as on Yoga (the guard stops execution
    // before the observer's hook).
    if (refusal) return maskedResult({ errors: [refusal] }, ctx);
    let observation: ReturnType<NonNullable<CompiledExecutionOptions['observe']>> | undefined;
    let result: ExecutionResult;
    try {
      observation = options.observe?.(args);
      const query = options.compiler?.(args);
      const execute = () => (query ? query.query(args.rootValue, args.contextValue, args.variableValues ?? {}) : options.fallback(args));
      result = await (observation ? observation.run(execute) : execute());
    } finally {
      // Nothing resolves after this: scope-auth's entry for the context goes (request-caches.ts).
      releaseRequestCaches(args.contextValue);
      // A heavy operation's execution slot (guards.ts) goes to the next one waiting.
      release?.();
    }
    result = maskedResult(result, ctx);
    observation?.done(result);
    return result;
  };
}
