// `@commerce-service/client/codegen`: the GraphQL Code Generator settings that fit this
// service's schema, so a storefront's `codegen.ts` is three lines. Why a preset: the schema's
// custom scalars would otherwise all become `any`; here each maps to what its JSON carries
// (money is integer minor units within 2^53 − 1, so a plain number), and `strictScalars` makes a
// scalar added later fail generation instead of silently typing as `any`. Nothing is imported
// from @graphql-codegen: the returned object is plain data its CLI reads, so this package does
// not depend on it.

/** TypeScript type of each custom scalar of schema.graphql, as sent and received over JSON. */
export const scalars = {
  UUID: 'string',
  DateTime: 'string',
  MinorUnits: 'number',
  JSONObject: 'Record<string, unknown>',
  JSON: 'unknown',
  // Uploads (multipart requests): a Blob (a File in browsers) goes up; nothing comes back as one.
  File: { input: 'Blob', output: 'never' },
} as const;

/** Plugin settings of the client preset that go with the scalars. */
export const clientPresetConfig = {
  scalars,
  strictScalars: true,
  enumsAsTypes: true,
  useTypeImports: true,
  // Explicit `.js` extensions in generated imports: Node ESM and every bundler accept them.
  emitLegacyCommonJSImports: false,
} as const;

export interface CodegenOptions {
  /** schema.graphql, or the running service's /graphql URL (introspection must be allowed). */
  schema: string;
  /** Files holding your `graphql(...)` operations, e.g. 'src/**\/*.{ts,tsx}'. */
  documents: string | string[];
  /** Output folder of the client preset, ending in '/', e.g. 'src/gql/'. */
  output: string;
  /** Extra or overriding client-preset plugin settings. */
  config?: Record<string, unknown>;
  /** Settings of the preset itself (e.g. { fragmentMasking: false }). */
  presetConfig?: Record<string, unknown>;
}

/** A whole codegen config (the default export of a codegen.ts) for GraphQL Code Generator's client preset. */
export function codegenConfig(options: CodegenOptions) {
  return {
    schema: options.schema,
    documents: options.documents,
    ignoreNoDocuments: false,
    generates: {
      [options.output]: {
        preset: 'client' as const,
        config: { ...clientPresetConfig, ...options.config },
        ...(options.presetConfig ? { presetConfig: options.presetConfig } : {}),
      },
    },
  };
}
