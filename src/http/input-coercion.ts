// REST bodies meet GraphQL input coercion before sofa runs the operation, so that a refused value
// inside a structured argument (an item of `lines`, a field of `shippingAddress`) is answered 422
// naming its path (`lines.0.quantity`), as zod names the fields it refuses. Executed, the same
// refusal is a variable error whose wording depends on the executor: graphql-js names the path
// inside the message, graphql-jit (graphql/jit.ts, every document from its second run on) does
// not. Checking here with graphql-js's own coerceInputValue against the argument's type refuses
// exactly what execution would, no more: the input objects' fields are optional in GraphQL (see
// withGraphqlInput), so a missing field still reaches zod in the resolver, after the permission
// check, and is named there.
import { coerceInputValue, type GraphQLSchema } from 'graphql';

export interface FieldIssue {
  field: string;
  message: string;
}

/** An unknown input field is refused at its object (`lines[0]`); the field itself is what is wrong. */
const UNKNOWN_FIELD = /^Field "(\w+)" is not defined by type /;

/**
 * Issues of the structured (object or array) body values of operation `name`, by dotted path.
 * Scalars are left to structuredArgumentIssues (graphql/zod-args.ts), which names them with the
 * field's zod message; an explicit null is the facade's nullArgs.
 */
export function structuredValueIssues(schema: GraphQLSchema, kind: 'query' | 'mutation', name: string, body: Record<string, unknown>): FieldIssue[] {
  const field = (kind === 'query' ? schema.getQueryType() : schema.getMutationType())?.getFields()[name];
  const issues: FieldIssue[] = [];
  for (const arg of field?.args ?? []) {
    const value = body[arg.name];
    if (value === null || typeof value !== 'object') continue;
    coerceInputValue(value, arg.type, (path, _invalid, error) => {
      const unknown = UNKNOWN_FIELD.exec(error.message)?.[1];
      issues.push({ field: [arg.name, ...path.map(String), ...(unknown ? [unknown] : [])].join('.'), message: error.message });
    });
  }
  return issues;
}
