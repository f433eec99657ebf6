// Passes over the assembled /api/doc that the registry alone cannot make true: typed settings
// groups, the recursive analytics filter, named enums instead of inline copies in request
// schemas, extra representations of raw routes, declared tags, and no unused components.
import { z } from 'zod';
import { ref, refWith } from './openapi-types.js';

type Json = Record<string, unknown>;

/** One line per tag: Redocly (and every renderer) shows it above the tag's operations. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  meta: 'Health, readiness, this document and the API explorer',
  auth: 'Sign-up, sign-in, sign-out and the current session (better-auth)',
  settings: 'Per-organization settings groups (general, branding, policies, shipping and free-form ones)',
  catalog: 'Catalog entities (products and other types), variants, options, categories, brands, attributes and custom fields',
  admin: 'Administration: custom field definitions and proposals',
  jobs: 'Background jobs: failed ones, retries, and running due jobs',
  webhooks: 'Webhook endpoints, deliveries and their attempts',
  carts: 'Carts and their items',
  checkout: 'Turning a cart into an order',
  orders: 'Orders, their status, fulfillments, refunds, notes, timeline and documents',
  payments: 'Payment provider webhooks',
  inventory: 'Warehouses, stock levels, adjustments, movements, availability and reservations',
  pricing: 'Prices, price modifiers and resolved prices',
  promotions: 'Promotions and their validation against a cart',
  tax: 'Tax classes',
  audit: 'The audit trail of privileged changes',
  me: 'The signed-in customer: profile, addresses, orders, downloads and reorders',
  customers: 'Customers of the organization (staff view)',
  analytics: 'Reports, the analytics model and ad-hoc queries',
  search: 'Catalog search and suggestions',
  media: 'Media assets: uploads, signed downloads and attachments',
  marketplace: 'Marketplace plugin: vendors, sub-orders, payouts, disputes, returns and reviews',
  pos: 'Point-of-sale plugin: registers, shifts and sales',
  layaways: 'Layaway plugin: plans paid in instalments',
  channel: 'Sales channel plugin: connected stores and their listings',
  loyalty: 'Loyalty plugin: points and stamps',
};

export function tagObjects(paths: Record<string, Json>): Json[] {
  const used = new Set<string>();
  for (const item of Object.values(paths)) for (const op of Object.values(item) as Json[]) for (const tag of (op.tags as string[] | undefined) ?? []) used.add(tag);
  return [...used].sort().map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? `Operations tagged ${name}` }));
}

function zodSchema(schema: z.core.$ZodType): Json {
  const out = z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'output', unrepresentable: 'any' }) as Json;
  delete out.$schema;
  return out;
}

/**
 * The known settings groups as components (stored values and patches), referenced from the
 * settings routes, plus a literal path per known group: OpenAPI 3.0 cannot vary a schema by a
 * path parameter's value, so `/api/settings/general` is documented beside `/api/settings/{group}`
 * (which keeps serving every other group as a free-form object).
 */
/**
 * The typed settings groups, a registry the settings module fills when it loads
 * (modules/settings/groups.ts), so this layer documents them without importing the module.
 */
const settingsGroups: Record<string, Record<string, z.ZodType>> = {};

export function documentSettingsGroups(groups: Record<string, Record<string, z.ZodType>>): void {
  Object.assign(settingsGroups, groups);
}

export function typeSettings(paths: Record<string, Json>, schemas: Record<string, Json>): void {
  const groupOp = (paths['/api/settings/{group}'] as Json | undefined) ?? {};
  const all = (paths['/api/settings'] as Json | undefined)?.get as Json | undefined;
  const free = { type: 'object', additionalProperties: true };
  const groups: Record<string, Json> = {};
  for (const [group, fields] of Object.entries(settingsGroups)) {
    // biome-ignore lint/style/noNonNullAssertion: predates the rule (issue 31), not reviewed yet: justify here or remove it when touching this line
    const title = group[0]!.toUpperCase() + group.slice(1);
    schemas[`Settings${title}Values`] = { ...zodSchema(z.object(fields).partial()), description: `Stored values of the settings group \`${group}\`` };
    const patch = z.object(Object.fromEntries(Object.entries(fields).map(([key, schema]) => [key, schema.nullable().optional()]))).strict();
    schemas[`Settings${title}Patch`] = { ...zodSchema(patch), description: `A patch of the settings group \`${group}\`: keys to set, null to delete` };
    groups[group] = ref(`Settings${title}Values`);
    const item: Json = {};
    for (const [method, op] of Object.entries(groupOp) as Array<[string, Json]>) {
      const parameters = ((op.parameters as Json[] | undefined) ?? []).filter((p) => p.name !== 'group');
      const responses = structuredClone(op.responses) as Record<string, Json>;
      for (const [status, response] of Object.entries(responses)) {
        if (!status.startsWith('2')) continue;
        const content = response.content as Record<string, Json>;
        content['application/json'] = { schema: { type: 'object', required: ['data'], properties: { data: ref(`Settings${title}Values`) } } };
      }
      item[method] = {
        ...op,
        operationId: `${op.operationId as string}${title}`,
        summary: `${op.summary as string} (group ${group})`,
        ...(parameters.length ? { parameters } : { parameters: undefined }),
        ...(op.requestBody ? { requestBody: { required: true, content: { 'application/json': { schema: ref(`Settings${title}Patch`) } } } } : {}),
        responses,
      };
      if (!parameters.length) delete (item[method] as Json).parameters;
    }
    paths[`/api/settings/${group}`] = item;
  }
  const allOk = (all?.responses as Record<string, Json> | undefined)?.['200'];
  if (allOk) {
    (allOk.content as Record<string, Json>)['application/json'] = {
      schema: {
        type: 'object',
        required: ['data'],
        properties: { data: { type: 'object', properties: groups, additionalProperties: free, description: 'Every group set so far, keyed by name' } },
      },
    };
  }
}

/**
 * The analytics filter is recursive (`and` / `or` hold filters); zod checks the nesting itself
 * (a recursive zod schema would print a dangling $ref), so the document names the schema once as
 * AnalyticsFilter and points the nested lists back at it.
 */
export function typeAnalyticsFilter(paths: Record<string, Json>, schemas: Record<string, Json>): void {
  const body = ((paths['/api/analytics/query'] as Json | undefined)?.post as Json | undefined)?.requestBody as Json | undefined;
  const schema = (body?.content as Record<string, Json> | undefined)?.['application/json']?.schema as Json | undefined;
  const filters = (schema?.properties as Record<string, Json> | undefined)?.filters;
  const filter = filters?.items as Json | undefined;
  if (!filters || !filter) return;
  const properties = filter.properties as Record<string, Json>;
  for (const key of ['and', 'or']) if (properties[key]) properties[key] = { ...properties[key], items: ref('AnalyticsFilter') };
  schemas.AnalyticsFilter = { ...filter, description: 'A condition `{ member, operator, values }` or a group `{ and: [...] }` / `{ or: [...] }` of filters' };
  filters.items = ref('AnalyticsFilter');
}

/**
 * Request schemas come from zod, which inlines enums; where the values are exactly a GraphQL
 * enum's, point at its component instead (one named enum per set of values, for generated clients).
 */
export function refEnums(node: unknown, enums: Map<string, string[]>, used: Set<string>): unknown {
  if (Array.isArray(node)) return node.map((item) => refEnums(item, enums, used));
  if (!node || typeof node !== 'object') return node;
  const object = node as Json;
  if (object.type === 'string' && Array.isArray(object.enum)) {
    const values = [...(object.enum as string[])].sort().join('\u0000');
    for (const [name, members] of enums) {
      if ([...members].sort().join('\u0000') !== values) continue;
      used.add(name);
      const { type: _type, enum: _enum, ...extras } = object;
      return refWith(name, extras, 'string');
    }
  }
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, refEnums(value, enums, used)]));
}

/** Component names some `$ref` reaches from the paths, following refs between components. */
export function reachableComponents(paths: unknown, schemas: Record<string, Json>): Set<string> {
  const reached = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
        const name = value.slice('#/components/schemas/'.length);
        if (!reached.has(name)) {
          reached.add(name);
          visit(schemas[name]);
        }
      } else visit(value);
    }
  };
  visit(paths);
  return reached;
}
