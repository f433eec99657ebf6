// Limits that stop one GraphQL request from exhausting the server, enforced by graphql-armor
// during validation (before anything executes). Defaults here; config.graphql overrides them.
import { EnvelopArmor } from '@escape.tech/graphql-armor';
import type { Plugin } from 'graphql-yoga';

export interface GraphqlLimits {
  maxDepth: number;
  maxAliases: number;
  maxCost: number;
  maxTokens: number;
}

export const DEFAULT_GRAPHQL_LIMITS: GraphqlLimits = { maxDepth: 12, maxAliases: 30, maxCost: 5000, maxTokens: 5000 };

/** Cost weights of graphql-armor's cost analysis; rate charging (graphql/guards.ts) uses them too. */
export const COST_WEIGHTS = { objectCost: 2, scalarCost: 1, depthCostFactor: 1.5 } as const;

export function limitPlugins(limits: GraphqlLimits, options: { suggestions?: boolean } = {}): Plugin[] {
  const shield = new EnvelopArmor({
    maxDepth: { n: limits.maxDepth, ignoreIntrospection: true, exposeLimits: true },
    maxAliases: { n: limits.maxAliases, exposeLimits: true },
    costLimit: { maxCost: limits.maxCost, ...COST_WEIGHTS, ignoreIntrospection: true, exposeLimits: true },
    maxTokens: { n: limits.maxTokens, exposeLimits: true },
    maxDirectives: { n: 50, exposeLimits: true },
    // "Did you mean ...?" hints map the schema for someone who cannot introspect it.
    blockFieldSuggestion: { enabled: options.suggestions === false },
  });
  return shield.protect().plugins as Plugin[];
}
