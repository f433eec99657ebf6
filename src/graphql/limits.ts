// Limits that stop one GraphQL request from exhausting the server: depth, aliases, tokens and
// directives by graphql-armor during validation; cost by graphql/cost.ts in graphql/guards.ts
// (armor's cost has no list multipliers, and REST routes skip validation but not execution
// hooks). Both refuse before anything executes. Defaults here; config.graphql overrides them.
import { EnvelopArmor } from '@escape.tech/graphql-armor';
import type { Plugin } from 'graphql-yoga';

export interface GraphqlLimits {
  maxDepth: number;
  maxAliases: number;
  maxCost: number;
  maxTokens: number;
}

export const DEFAULT_GRAPHQL_LIMITS: GraphqlLimits = { maxDepth: 12, maxAliases: 30, maxCost: 50_000, maxTokens: 5000 };

export function limitPlugins(limits: GraphqlLimits, options: { suggestions?: boolean } = {}): Plugin[] {
  const shield = new EnvelopArmor({
    maxDepth: { n: limits.maxDepth, ignoreIntrospection: true, exposeLimits: true },
    maxAliases: { n: limits.maxAliases, exposeLimits: true },
    costLimit: { enabled: false },
    maxTokens: { n: limits.maxTokens, exposeLimits: true },
    maxDirectives: { n: 50, exposeLimits: true },
    // "Did you mean ...?" hints map the schema for someone who cannot introspect it.
    blockFieldSuggestion: { enabled: options.suggestions === false },
  });
  return shield.protect().plugins as Plugin[];
}
