// Plugin operations answer typed objects: with every shipped plugin enabled, no plugin field,
// argument or type is JSON/JSONObject unless listed here with its reason; closed sets are
// enums; and schema.plugins.graphql (`npm run schema:print:plugins`) is the schema as built.
// Before typed outputs, the plugin-enabled schema had 118 JSON/JSONObject fields and arguments,
// 73 of them the plugins' (66 answers, 7 inputs); after typed outputs 48 (7, the inputs); after
// typed inputs 41 (0), the same as the core schema's.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getNamedType, isEnumType, isObjectType } from 'graphql';
import { jsonFields, pluginSchema, printPluginSchema, PLUGINS_SCHEMA_FILE } from '../../scripts/plugins-graphql.js';
import { operations } from '../../src/graphql/operation.js';
import { SHIPPED_PLUGINS, shippedPlugins } from './shipped.js';

// Inputs are typed too: list items are input objects (LayawayLineInput, PosReturnLineInput, …)
// declared with src/plugins/types.ts pluginInput; before, 7 arguments were [JSONObject!]. A plugin
// argument that must stay JSON (user-defined data) is listed here with its reason.
const REMAINING: Record<string, string> = {};

const schema = pluginSchema(shippedPlugins());
const pluginOperations = new Set(
  [...operations.values()]
    .filter((op) => SHIPPED_PLUGINS.some((p) => `${op.rest?.path ?? ''}/`.startsWith(p.prefix)))
    .map((op) => `${op.kind === 'query' ? 'Query' : 'Mutation'}.${op.name}`),
);
const PLUGIN_TYPE = /^(Marketplace|Layaway|Pos|Channel|Loyalty|PluginListMeta)/;
const isPluginField = (name: string) => pluginOperations.has(name.replace(/\(.*$/, '')) || PLUGIN_TYPE.test(name);

describe('plugin GraphQL types', () => {
  it('type every plugin answer and argument: no plugin JSON unless listed with its reason', () => {
    expect(pluginOperations.size).toBeGreaterThan(60);
    const all = jsonFields(schema);
    const plugin = all.filter(isPluginField);
    console.info(
      `JSON/JSONObject fields and arguments with every plugin enabled: ${all.length} (plugins' own: ${plugin.length}; before typed outputs: 118 and 73, before typed inputs: 48 and 7)`,
    );
    expect(
      plugin.filter((name) => !(name in REMAINING)),
      'plugin JSON fields without a reason: type them, or list them with why',
    ).toEqual([]);
    expect(
      Object.keys(REMAINING).filter((name) => !plugin.includes(name)),
      'listed but no longer JSON',
    ).toEqual([]);
    // every plugin root field answers an object type (or a list/page of one)
    for (const name of pluginOperations) {
      const [root, field] = name.split('.') as ['Query' | 'Mutation', string];
      const type = (root === 'Query' ? schema.getQueryType() : schema.getMutationType())!.getFields()[field]!.type;
      expect(isObjectType(getNamedType(type)), name).toBe(true);
    }
  });

  it('answer closed sets as enums: no String status or kind fields on plugin types', () => {
    const strings: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || !PLUGIN_TYPE.test(type.name)) continue;
      for (const field of Object.values(type.getFields())) {
        if (!/(^status$|Status$|^resolution$|^settlement$|^action$|^refundMethod$|^forfeitPolicy$)/.test(field.name)) continue;
        if (!isEnumType(getNamedType(field.type))) strings.push(`${type.name}.${field.name}`);
      }
    }
    expect(strings).toEqual([]);
  });

  it('keeps schema.plugins.graphql current (npm run schema:print:plugins)', () => {
    expect(fs.readFileSync(PLUGINS_SCHEMA_FILE, 'utf8'), 'schema.plugins.graphql is stale: run npm run schema:print:plugins').toBe(printPluginSchema(schema));
  });
});
