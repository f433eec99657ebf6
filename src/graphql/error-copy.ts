// graphql-js defines a GraphQLError's `extensions` read-only and not configurable: amending them
// means a copy that keeps everything else (message, locations, path, the original error). Used by
// the error masking (catalogue codes) and the variable-error details.
import { GraphQLError } from 'graphql';

export function withExtensions(error: GraphQLError, extensions: Record<string, unknown>): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions,
  });
}
