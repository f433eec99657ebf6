// Per-request guards on GraphQL execution (REST routes execute through the same path):
//  - an operation whose cost (graphql/cost.ts: objects it may build, list sizes multiplied) is
//    over graphql.maxCost, or that loops through a list, is refused before it executes;
//  - cost-based rate charging: one request admitted by the rate limiter paid one point; an
//    operation is charged ceil(cost / graphqlCostPerPoint) points in all, so thirty aliases of a
//    field, or a page with every relation selected, cost what they do (finding: aliases
//    multiplied work under one rate-limit unit);
//  - introspection for anonymous callers and customers only when graphql.publicIntrospection;
//  - an operation costing at least executionSlots.minCost waits for an execution slot
//    (execution-slots.ts) once the guards above have let it through.
import { Kind, type DocumentNode, type ExecutionArgs, type FragmentDefinitionNode, type SelectionSetNode, type OperationDefinitionNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { RequestContext } from '../context.js';
import { AppError } from '../errors.js';
import { viaRestFacade } from './loaders.js';
import { MAX_LIST_ENTRIES_PER_PATH, operationCost, type OperationCost } from './cost.js';
import type { ExecutionSlots } from './execution-slots.js';

function operationOf(document: DocumentNode, operationName?: string | null): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
}

/** QUERY_TOO_COSTLY (400) with the computed cost and the maximum, or null when the operation fits. */
export function costRefusal(cost: OperationCost, maxCost: number): AppError | null {
  if (cost.loop) {
    return new AppError('QUERY_TOO_COSTLY', `The list ${cost.loop} is entered more than ${MAX_LIST_ENTRIES_PER_PATH} times along one path; select it once and page it`, {
      cost: cost.cost,
      maxCost,
      loop: cost.loop,
    });
  }
  if (cost.cost > maxCost) {
    return new AppError('QUERY_TOO_COSTLY', `Query cost ${cost.cost} exceeds the maximum ${maxCost}: lower the limit/first of nested lists or select fewer relations`, {
      cost: cost.cost,
      maxCost,
    });
  }
  return null;
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

/**
 * The roles whose sessions may introspect when introspection is not public. A closed list, not
 * "anyone but customers": plugin roles (vendor, cashier) and operators' own roles are outside
 * staff and use an API key for schema tooling (finding 17: vendor sessions introspected).
 */
export const INTROSPECTION_ROLES: ReadonlySet<string> = new Set(['owner', 'admin', 'staff']);

/** Introspection is for tools of the store's own staff when it is not public. */
function mayIntrospect(ctx: RequestContext): boolean {
  const actor = ctx.actor;
  return Boolean(actor && (actor.kind === 'apiKey' || (actor.role !== null && INTROSPECTION_ROLES.has(actor.role) && !actor.customerId)));
}

export interface GuardOptions {
  costPerPoint: number;
  maxCost: number;
  publicIntrospection: boolean;
  /** Operations costing at least minCost wait for one of these slots (execution-slots.ts); null: none wait. */
  heavy?: { slots: ExecutionSlots; minCost: number } | null;
}

/** What the guards decided: a refusal, or run it, holding a slot when `release` is set. */
export type ExecutionAdmission = { refusal: AppError; release: null } | { refusal: null; release: (() => void) | null };

const RUN: ExecutionAdmission = { refusal: null, release: null };

/**
 * The refusal these guards give an operation before it executes (introspection, cost, the rate
 * charge of its cost), else, for a heavy one, the wait for an execution slot. One function for
 * both ways in: the envelop plugin below (/graphql) and compiled execution (the REST facade and
 * /graphql's fast lane). The caller gives the slot back when execution ends.
 */
export async function admitExecution(args: ExecutionArgs, options: GuardOptions): Promise<ExecutionAdmission> {
  const ctx = args.contextValue as RequestContext;
  if (!options.publicIntrospection && !mayIntrospect(ctx)) {
    const operation = operationOf(args.document, args.operationName);
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const d of args.document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    if (operation && introspects(operation.selectionSet, fragments)) return refused(new AppError('FORBIDDEN', 'Introspection is available to staff and API keys only'));
  }
  // Before any resolver runs (REST routes execute here too, without GraphQL validation).
  const cost = operationCost(args.schema, args.document, args.operationName, args.variableValues as Record<string, unknown> | null, {
    rest: viaRestFacade(ctx),
    restQuery: ctx.rest?.queryArgs,
  });
  const refusal = costRefusal(cost, options.maxCost);
  if (refusal) return refused(refusal);
  const points = Math.max(1, Math.ceil(cost.cost / options.costPerPoint));
  // The first point was charged when the request was admitted: most operations owe no more.
  if (ctx.rateLimit && points > 1) {
    try {
      await ctx.rateLimit.charge(points - 1);
    } catch (error) {
      if (error instanceof AppError) return refused(error);
      throw error;
    }
  }
  if (!options.heavy || cost.cost < options.heavy.minCost) return RUN;
  return { refusal: null, release: await options.heavy.slots.acquire() };
}

function refused(refusal: AppError): ExecutionAdmission {
  return { refusal, release: null };
}

export function useRequestGuards(options: GuardOptions): Plugin<RequestContext> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const { refusal, release } = await admitExecution(args as ExecutionArgs, options);
      if (refusal) setResultAndStopExecution({ errors: [refusal] });
      if (release) return { onExecuteDone: release };
    },
  };
}
