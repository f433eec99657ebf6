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

export function limitPlugins(limits: GraphqlLimits): Plugin[] {
  const shield = new EnvelopArmor({
    maxDepth: { n: limits.maxDepth, ignoreIntrospection: true, exposeLimits: true },
    maxAliases: { n: limits.maxAliases, exposeLimits: true },
    costLimit: { maxCost: limits.maxCost, objectCost: 2, scalarCost: 1, depthCostFactor: 1.5, ignoreIntrospection: true, exposeLimits: true },
    maxTokens: { n: limits.maxTokens, exposeLimits: true },
    maxDirectives: { n: 50, exposeLimits: true },
    blockFieldSuggestion: { enabled: false },
  });
  return shield.protect().plugins as Plugin[];
}
