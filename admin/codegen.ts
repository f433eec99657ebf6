// GraphQL Code Generator (client-preset): every `graphql(...)` document under src/ becomes a
// typed document in src/gql/. The schema is schema.plugins.graphql — the core schema plus the
// plugins' operations — so plugin screens are typed too; core screens use core fields only.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: '../schema.plugins.graphql',
  documents: ['src/**/*.tsx', 'src/**/*.ts', '!src/gql/**/*'],
  ignoreNoDocuments: true,
  generates: {
    'src/gql/': {
      preset: 'client',
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: {
          UUID: 'string',
          DateTime: 'string',
          MinorUnits: 'number',
          JSON: 'unknown',
          JSONObject: 'Record<string, unknown>',
          File: 'File',
        },
      },
      presetConfig: { fragmentMasking: false },
    },
  },
};

export default config;
