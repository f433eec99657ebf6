// Types to the leaves: no String status fields, and JSONObject only where the data is the user's
// own (or where this test says why it stays). A new JSONObject field fails here until it is
// typed or listed with its reason.
import { describe, expect, it } from 'vitest';
import { getNamedType, isInputObjectType, isObjectType, type GraphQLNamedType } from 'graphql';
import { buildSchema } from '../../src/schema.js';

const USER_DATA = 'user-defined data: free-form metadata';
const REMAINING_JSON_OBJECTS: Record<string, string> = {
  'CatalogBrand.metadata': USER_DATA,
  'CatalogCategory.metadata': USER_DATA,
  'CatalogEntity.metadata': USER_DATA,
  'CatalogVariant.metadata': USER_DATA,
  'CatalogVariant.options': 'keyed by user-defined option type names ({ size: "L" }); the typed list is optionValues',
  'OrderTimelineEntry.data': 'differs per entry type and action (status change, note, refund created/undone/failed); summary and type are typed',
  'Query.settings': 'every settings group, including user-named groups of arbitrary JSON; the known groups are typed under storeSettings',
  'Query.settingsGroup': 'a group by name, user-named groups hold arbitrary JSON; the known groups are typed under storeSettings',
  'Mutation.settingsUpdate': 'answers the merged group, which may be user-named arbitrary JSON',
  'Mutation.settingsUpdate(values)': 'a patch of a group that may be user-named; known groups are validated field by field (422 details name each field)',
  // Inputs: zod validates them and names the failing path in details (customFields.material,
  // lines.0.quantity); as GraphQL input objects coercion would refuse them before that, without paths.
  'Mutation.catalogEntityCreate(metadata)': USER_DATA,
  'Mutation.catalogEntityCreate(customFields)': 'custom-field values keyed by user-defined field names, validated against their definitions',
  'Mutation.catalogEntityUpdate(metadata)': USER_DATA,
  'Mutation.catalogEntityUpdate(customFields)': 'custom-field values keyed by user-defined field names, validated against their definitions',
  'Mutation.catalogBrandCreate(metadata)': USER_DATA,
  'Mutation.catalogBrandUpdate(metadata)': USER_DATA,
  'Mutation.catalogCategoryCreate(metadata)': USER_DATA,
  'Mutation.catalogCategoryUpdate(metadata)': USER_DATA,
  'Mutation.catalogVariantQuickCreate(options)': 'keyed by user-defined option type names',
  'Mutation.catalogVariantQuickCreate(metadata)': USER_DATA,
  'Mutation.catalogVariantCreate(options)': 'keyed by user-defined option type names',
  'Mutation.catalogVariantCreate(metadata)': USER_DATA,
  'Mutation.catalogVariantUpdate(metadata)': USER_DATA,
  'Mutation.catalogVariantsBulkCreate(axes)': 'keyed by user-defined option type names',
  'AnalyticsQueryResult.data': 'rows keyed by the members the query asked for (Model.member names chosen at run time)',
  'AnalyticsQueryMeta.query': 'the normalized query echoed back, keyed like the request',
  'AnalyticsQueryMeta.annotation': 'keyed by the requested member names; each value is { title, type }',
  'Query.analyticsQuery(order)': 'a map of requested member name to asc|desc: keys are chosen at run time',
  'ReportResult.data': 'rows whose columns differ per report; ReportResult.columns types each column',
  'ReportMeta.parameters': 'the parameters of the report that ran (date, or from/to), which differ per report',
  'ErrorCodeInfo.detailsSchema': 'a JSON Schema document (the same one /api/doc publishes for the code), arbitrary JSON by nature',
  'ReportMeta.totals': "per-report totals keyed by the report's own columns",
  'Mutation.paymentConfirm(params)':
    "the provider's return parameters (redirectResult, payment_intent, ...), which differ per provider; passed to the provider, which decides, never trusted",
  'SearchMeta.facets': 'keyed by the facet names the caller asked for (attribute names are user-defined); GraphQL also has the typed SearchResult.facets list',
};

function jsonObjectFields(): string[] {
  const schema = buildSchema();
  const found: string[] = [];
  // biome-ignore lint/suspicious/noConfusingVoidType: graphql's getNamedType is typed to return void for an undefined input
  const isJson = (type: GraphQLNamedType | undefined | void) => type?.name === 'JSONObject';
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || !(isObjectType(type) || isInputObjectType(type))) continue;
    for (const field of Object.values(type.getFields())) {
      if (isJson(getNamedType(field.type))) found.push(`${type.name}.${field.name}`);
      for (const arg of 'args' in field ? field.args : []) if (isJson(getNamedType(arg.type))) found.push(`${type.name}.${field.name}(${arg.name})`);
    }
  }
  return found.sort();
}

describe('schema types', () => {
  it('lists every remaining JSONObject field with the reason it stays', () => {
    const found = jsonObjectFields();
    const unexplained = found.filter((name) => !(name in REMAINING_JSON_OBJECTS));
    expect(unexplained, 'JSONObject fields without a reason: type them, or list them here with why').toEqual([]);
    const stale = Object.keys(REMAINING_JSON_OBJECTS).filter((name) => !found.includes(name));
    expect(stale, 'listed but no longer JSONObject: remove from the list').toEqual([]);
  });

  it('has no String status, type-of-a-closed-set or kind fields on output types', () => {
    const schema = buildSchema();
    const open = new Set(['CatalogEntity.type', 'CatalogFieldDefinition.entityType', 'PaymentWebhookReceipt.type', 'OrderAppliedPromotion.type', 'OrderPaymentEvent.type']);
    const strings: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || !isObjectType(type)) continue;
      for (const field of Object.values(type.getFields())) {
        if (!/(^status$|Status$|^kind$|^type$|^actorType$|^owner$|^encoding$|^transport$)/.test(field.name)) continue;
        if (getNamedType(field.type).name === 'String' && !open.has(`${type.name}.${field.name}`)) strings.push(`${type.name}.${field.name}`);
      }
    }
    expect(strings).toEqual([]);
  });

  it('keeps number as a deprecated alias of orderNumber', () => {
    const order = buildSchema().getType('Order');
    if (!isObjectType(order)) throw new Error('Order is not an object type');
    expect(getNamedType(order.getFields().orderNumber!.type).name).toBe('String');
    expect(order.getFields().number!.deprecationReason).toMatch(/orderNumber/);
  });
});
