// Per-request guards on GraphQL execution (REST routes execute through the same path):
//  - cost-based rate charging: one request admitted by the rate limiter paid one point; an
//    operation is charged ceil(cost / graphqlCostPerPoint) points in all, so thirty aliases of a
//    field, or a page with every relation selected, cost what they do (finding: aliases
//    multiplied work under one rate-limit unit);
//  - introspection for anonymous callers and customers only when graphql.publicIntrospection.
// The cost uses graphql-armor's weights (graphql/limits.ts), which bound it before execution.
import { Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode, type OperationDefinitionNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { RequestContext } from '../context.js';
import { AppError } from '../errors.js';
import { COST_WEIGHTS } from './limits.js';

function selectionCost(set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, depth: number, seen: Set<string>): number {
  let total = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value === '__typename') continue;
      total += selection.selectionSet
        ? COST_WEIGHTS.objectCost + COST_WEIGHTS.depthCostFactor * selectionCost(selection.selectionSet, fragments, depth + 1, seen)
        : COST_WEIGHTS.scalarCost;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      total += selectionCost(selection.selectionSet, fragments, depth, seen);
    } else {
      const name = selection.name.value;
      const fragment = fragments.get(name);
      if (!fragment || seen.has(name)) continue; // cycles are refused by validation anyway
      seen.add(name);
      total += selectionCost(fragment.selectionSet, fragments, depth, seen);
      seen.delete(name);
    }
  }
  return total;
}

function operationOf(document: DocumentNode, operationName?: string | null): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
}

/** The operation's cost with graphql-armor's weights. */
export function operationCost(document: DocumentNode, operationName?: string | null): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const operation = operationOf(document, operationName);
  return operation ? selectionCost(operation.selectionSet, fragments, 0, new Set()) : 0;
}

function introspects(set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, seen = new Set<string>()): boolean {
  return set.selections.some((selection) => {
    if (selection.kind === Kind.FIELD) return selection.name.value === '__schema' || selection.name.value === '__type';
    if (selection.kind === Kind.INLINE_FRAGMENT) return introspects(selection.selectionSet, fragments, seen);
    const fragment = fragments.get(selection.name.value);
    if (!fragment || seen.has(fragment.name.value)) return false;
    seen.add(fragment.name.value);
    return introspects(fragment.selectionSet, fragments, seen);
  });
}

/** Introspection is for tools of the store's own staff when it is not public. */
function mayIntrospect(ctx: RequestContext): boolean {
  const actor = ctx.actor;
  return Boolean(actor && (actor.kind === 'apiKey' || (actor.role !== 'customer' && !actor.customerId)));
}

export function useRequestGuards(options: { costPerPoint: number; publicIntrospection: boolean }): Plugin<RequestContext> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const ctx = args.contextValue as RequestContext;
      if (!options.publicIntrospection && !mayIntrospect(ctx)) {
        const operation = operationOf(args.document, args.operationName);
        const fragments = new Map<string, FragmentDefinitionNode>();
        for (const d of args.document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
        if (operation && introspects(operation.selectionSet, fragments)) {
          setResultAndStopExecution({ errors: [new AppError('FORBIDDEN', 'Introspection is available to staff and API keys only')] });
          return;
        }
      }
      if (!ctx.rateLimit) return;
      const points = Math.max(1, Math.ceil(operationCost(args.document, args.operationName) / options.costPerPoint));
      try {
        await ctx.rateLimit.charge(points - 1);
      } catch (error) {
        if (error instanceof AppError) setResultAndStopExecution({ errors: [error] });
        else throw error;
      }
    },
  };
}
