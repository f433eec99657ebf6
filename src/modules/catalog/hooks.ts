// Hooks other modules register on catalog writes, run inside the write's transaction so their
// rows commit or roll back with it. The inventory module registers `variantsCreated` to seed a
// zero stock level for each new variant (the spec's "variants/quick seeds zero stock"); until it
// is installed, no stock rows exist and nothing is seeded.
import type { Tx } from '../../db/client.js';
import { hooks, type HookContext } from '../../events/hooks.js';
import type { CatalogCtx } from './shared.js';

export interface CreatedVariant {
  id: string;
  entityId: string;
  sku: string;
}

export type VariantsCreatedHook = (tx: Tx, ctx: CatalogCtx, variants: CreatedVariant[]) => Promise<void>;

const variantsCreated: VariantsCreatedHook[] = [];

export function onVariantsCreated(hook: VariantsCreatedHook): void {
  variantsCreated.push(hook);
}

export async function runVariantsCreated(tx: Tx, ctx: CatalogCtx, variants: CreatedVariant[]): Promise<void> {
  if (!variants.length) return;
  for (const hook of variantsCreated) await hook(tx, ctx, variants);
}

/**
 * A field definition became (un)filterable or was archived: what search indexes for every entity
 * of its type changed. PostgreSQL's triggers refresh its own documents; an external engine's
 * copies need a rebuild, which the search module enqueues here (in the same transaction).
 */
export type FieldIndexingChangedHook = (tx: Tx, ctx: CatalogCtx, definition: { entityType: string; name: string }) => Promise<void>;

const fieldIndexingChanged: FieldIndexingChangedHook[] = [];

export function onFieldIndexingChanged(hook: FieldIndexingChangedHook): void {
  fieldIndexingChanged.push(hook);
}

export async function runFieldIndexingChanged(tx: Tx, ctx: CatalogCtx, definition: { entityType: string; name: string }): Promise<void> {
  for (const hook of fieldIndexingChanged) await hook(tx, ctx, definition);
}

/** Metadata keys a plugin gives meaning to (the marketplace's vendorId), checked before they are written. */
export interface MetadataWritePayload {
  /** Null on create. */
  entityId: string | null;
  metadata: Record<string, unknown>;
  /** The entity's metadata before this write; null on create. */
  previous: Record<string, unknown> | null;
}

declare module '../../events/hooks.js' {
  interface HookPayloads {
    /** Plugins check the metadata keys they own (a throw refuses the write); inside the write's transaction (ctx.tx). */
    'catalog.beforeMetadataWrite': MetadataWritePayload;
  }
}

export async function runBeforeMetadataWrite(tx: Tx, ctx: CatalogCtx, payload: MetadataWritePayload): Promise<void> {
  if (!hooks.count('catalog.beforeMetadataWrite')) return;
  // Catalog contexts built without HTTP (seed, bench) carry no services; the handlers read db/tx and organization.
  await hooks.runBefore('catalog.beforeMetadataWrite', payload, { ...(ctx as unknown as HookContext), tx });
}
