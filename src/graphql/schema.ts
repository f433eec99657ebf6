// Assembles the schema: every module registers its operations on import; this file is the
// list of modules. `npm run schema:print` writes schema.graphql from it.
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { builder } from './builder.js';
import { DEFAULT_GRAPHQL_LIMITS, type GraphqlLimits } from './limits.js';
import { describeFromGlossary } from './descriptions.js';
import '../modules/settings/schema.js';
import '../modules/store/schema.js';
import '../modules/catalog/schema.js';
import '../modules/jobs/schema.js';
import '../modules/webhooks/schema.js';
import '../modules/carts/schema.js';
import '../modules/checkout/schema.js';
import '../modules/orders/schema.js';
import '../modules/order-edits/schema.js';
import '../modules/draft-orders/schema.js';
import '../modules/payments/schema.js';
import '../modules/inventory/schema.js';
import '../modules/pricing/schema.js';
import '../modules/promotions/schema.js';
import '../modules/tax/schema.js';
import '../modules/tax/rates.schema.js';
import '../modules/shipping/schema.js';
import '../modules/shipping/cart.schema.js';
import '../modules/shipping/lines.js';
import '../modules/audit/schema.js';
import '../modules/customers/schema.js';
import '../modules/analytics/schema.js';
import '../modules/search/schema.js';
import '../modules/media/schema.js';
import '../modules/bulk/schema.js';
import './error-codes.js';
// Relations between modules (resolved when selected, batched): after every module's own types.
import '../modules/pricing/graph.js';
import '../modules/inventory/graph.js';
import '../modules/orders/graph.js';
import '../modules/carts/graph.js';
import '../modules/customers/graph.js';
import '../modules/webhooks/graph.js';

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
