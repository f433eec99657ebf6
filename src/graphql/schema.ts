// Builds the schema from what the modules registered on the builder. The core does not know the
// modules: the entry files import the module list (src/schema.ts) before they build, so what is
// built holds every module's fields.
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { builder } from './builder.js';
import { DEFAULT_GRAPHQL_LIMITS, type GraphqlLimits } from './limits.js';
import { describeFromGlossary } from './descriptions.js';

let built: GraphQLSchema | null = null;

function describeLimits(limits: GraphqlLimits): string {
  return [
    'Root of every read. Request limits (defaults; operators may change them):',
    `- depth: at most ${limits.maxDepth} nested selections`,
    `- aliases: at most ${limits.maxAliases} per operation`,
    `- cost: at most ${limits.maxCost} (each object a field may return costs 1, times the page size of every enclosing list; a list field enters at most twice along one path)`,
    `- tokens: at most ${limits.maxTokens} per document`,
    'An operation over a limit is refused before it executes, with a GraphQL error naming the limit.',
  ].join('\n');
}

/** Whether this process has built its schema (plugins must be activated before). */
export function isSchemaBuilt(): boolean {
  return built !== null;
}

export function buildSchema(): GraphQLSchema {
  if (built) return built;
  builder.queryType({ description: describeLimits(DEFAULT_GRAPHQL_LIMITS) });
  builder.mutationType({ description: 'Root of every write. The same request limits as Query apply.' });
  built = builder.toSchema({ sortSchema: false });
  describeFromGlossary(built);
  return built;
}

export function printSchemaSDL(): string {
  return `${printSchema(lexicographicSortSchema(buildSchema())).trim()}\n`;
}
