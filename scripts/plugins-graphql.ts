// `npm run schema:print:plugins`: the GraphQL schema with every plugin this repository ships
// enabled (schema.graphql has none), written to schema.plugins.graphql for SDK generators and
// reviewers of plugin types, and the fields and arguments still typed JSON/JSONObject in it
// (test/plugins/schema-types.test.ts keeps that list explained and the file current).
import fs from 'node:fs';
import path from 'node:path';
import { getNamedType, isInputObjectType, isObjectType, lexicographicSortSchema, printSchema, type GraphQLNamedType, type GraphQLSchema } from 'graphql';
import { resolveConfig } from '../src/config/index.js';
import { createLogger } from '../src/logger.js';
import { activatePlugins } from '../src/plugins/runtime.js';
import { buildSchema } from '../src/schema.js';
import { PACKAGE_ROOT } from '../src/paths.js';
import type { Plugin } from '../src/plugins/index.js';
import { channel } from '../plugins/channel/index.js';
import { layaway } from '../plugins/layaway/index.js';
import { loyalty } from '../plugins/loyalty/index.js';
import { marketplace } from '../plugins/marketplace/index.js';
import { pos } from '../plugins/pos/index.js';

export const PLUGINS_SCHEMA_FILE = path.join(PACKAGE_ROOT, 'schema.plugins.graphql');

/** Every field (`Type.field`) and argument (`Type.field(arg)`) whose named type is JSON or JSONObject. */
export function jsonFields(schema: GraphQLSchema): string[] {
  const found: string[] = [];
  // biome-ignore lint/suspicious/noConfusingVoidType: graphql's getNamedType is typed to return void for an undefined input
  const isJson = (type: GraphQLNamedType | undefined | void) => type?.name === 'JSON' || type?.name === 'JSONObject';
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || !(isObjectType(type) || isInputObjectType(type))) continue;
    for (const field of Object.values(type.getFields())) {
      if (isJson(getNamedType(field.type))) found.push(`${type.name}.${field.name}`);
      for (const arg of 'args' in field ? field.args : []) if (isJson(getNamedType(arg.type))) found.push(`${type.name}.${field.name}(${arg.name})`);
    }
  }
  return found.sort();
}

/** Activates the shipped plugins in this process (once) and builds the schema. */
export function pluginSchema(plugins?: Plugin[]): GraphQLSchema {
  const list = plugins ?? [loyalty(), layaway(), pos(), channel(), marketplace()];
  const config = resolveConfig({ plugins: list });
  activatePlugins(config, createLogger('silent'));
  return buildSchema();
}

export function printPluginSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema)).trim()}\n`;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const schema = pluginSchema();
  fs.writeFileSync(PLUGINS_SCHEMA_FILE, printPluginSchema(schema));
  const json = jsonFields(schema);
  console.log(`wrote ${path.relative(process.cwd(), PLUGINS_SCHEMA_FILE)}; JSON/JSONObject fields and arguments: ${json.length}`);
  if (process.argv.includes('--list')) for (const name of json) console.log(`  ${name}`);
}
