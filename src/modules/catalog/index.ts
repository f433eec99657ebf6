// What other modules use from the catalog:
//   - registerCatalogInclude + includedValue + CatalogEntityRef: add an `include` embed
//     (inventory, pricing, media) and its CatalogEntity field (see include.ts);
//   - onVariantsCreated: run inside the transaction that creates variants (inventory seeds zero
//     stock there);
//   - findReadableEntity: an entity by UUID or slug with the catalog's visibility rules;
//   - the views and event payload types.
export { registerCatalogInclude, includedValue, loadIncluded, availableIncludes, type CatalogIncluder } from './include.js';
export { onVariantsCreated, type CreatedVariant, type VariantsCreatedHook } from './hooks.js';
export { findReadableEntity } from './entities/service.js';
export { loadCatalogEntity, loadCatalogVariant } from './graph.js';
export { CatalogEntityRef, CatalogVariantRef } from './types.js';
export type { CatalogCtx } from './shared.js';
export type { CatalogEntityView, CatalogEntityPayload, VariantView } from './views.js';
export { seedCatalog } from './seed.js';
