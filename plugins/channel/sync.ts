// Applying what a store says to the local catalog and stock. Store-sourced entities are written
// through the catalog and inventory services (so events, webhooks and search indexing see them
// like any edit) by a sync actor holding catalog:sync, and every field follows its ownership row
// (GET/PUT /catalog/entities/:id/field-ownership):
//
//   owner     | what a sync does with the store's value
//   ----------|---------------------------------------------------------------------------
//   store     | writes it whenever the local value differs: a local edit is overwritten
//   platform  | never writes it: the local value is kept, whatever the store says
//   shared    | writes it only when the store changed it since the last sync (last writer wins)
//
// A field without a row is owned by the store (the entity came from it). The most specific
// row decides: an exact path beats a prefix (`attributes.en.title` beats `attributes`), and a
// row naming this store beats one for every store.
import { isDeepStrictEqual } from 'node:util';
import type { Actor } from '../../src/auth/actor.js';
import type { Db, Tx } from '../../src/db/client.js';
import { withTransaction } from '../../src/db/transaction.js';
import type { CatalogCtx } from '../../src/modules/catalog/shared.js';
import { createEntity, updateEntity } from '../../src/modules/catalog/entities/service.js';
import { setAttributes } from '../../src/modules/catalog/attributes/service.js';
import { adjustStock } from '../../src/modules/inventory/adjust.service.js';
import type { ChannelStore, CatalogFieldOwnership, Prisma } from '../../src/generated/prisma/client.js';
import type { RemoteAttributes, RemoteEntity } from './connector.js';

export const ATTRIBUTE_FIELDS = ['title', 'description', 'seoTitle', 'seoDescription'] as const satisfies ReadonlyArray<keyof RemoteAttributes>;
export type Owner = 'platform' | 'store' | 'shared';

/** Who writes on behalf of a store: the catalog's sync permission and stock corrections, nothing else. */
export function syncActor(organizationId: string, storeId: string): Actor {
  return {
    // Not a key anyone holds: the tasks act for the store the organization connected.
    kind: 'apiKey',
    userId: `channel:${storeId}`,
    organizationId,
    role: null,
    permissions: ['catalog:read', 'catalog:read:unpublished', 'catalog:create', 'catalog:update', 'catalog:sync', 'inventory:adjust'],
  };
}

export interface SyncScope {
  db: Db;
  organizationId: string;
  store: ChannelStore;
  requestId: string;
}

function catalogCtx(scope: SyncScope, tx: Tx): CatalogCtx {
  return {
    db: tx as unknown as Db,
    organization: { id: scope.organizationId } as CatalogCtx['organization'],
    actor: syncActor(scope.organizationId, scope.store.id),
    requestId: scope.requestId,
  };
}

/**
 * Metadata keys that grant ownership here: `vendorId` names the local marketplace vendor that
 * may edit the entity and is paid for its sales. A store's value means something only at the
 * store, so an import never copies it, and a value set locally survives every later import.
 */
const OWNERSHIP_KEYS = ['vendorId'] as const;

function withoutOwnership(metadata: unknown): Record<string, unknown> {
  const rest = { ...((metadata ?? {}) as Record<string, unknown>) };
  for (const key of OWNERSHIP_KEYS) delete rest[key];
  return rest;
}

function ownershipOf(metadata: unknown): Record<string, unknown> {
  const all = (metadata ?? {}) as Record<string, unknown>;
  return Object.fromEntries(OWNERSHIP_KEYS.filter((key) => key in all).map((key) => [key, all[key]]));
}

/** The synced fields of an entity as path → value (`status`, `metadata` without ownership keys, `attributes.en.title`, ...). */
export function remoteFieldValues(entity: RemoteEntity): Record<string, unknown> {
  const values: Record<string, unknown> = { status: entity.status, metadata: withoutOwnership(entity.metadata) };
  for (const [locale, attrs] of Object.entries(entity.attributes)) {
    for (const field of ATTRIBUTE_FIELDS) values[`attributes.${locale}.${field}`] = attrs[field] ?? null;
  }
  return values;
}

type OwnershipRow = Pick<CatalogFieldOwnership, 'fieldPath' | 'owner' | 'storeId' | 'variantId'>;

export function ownerOf(path: string, rows: readonly OwnershipRow[], storeId: string): Owner {
  let best: { row: OwnershipRow; rank: number } | null = null;
  for (const row of rows) {
    if (row.variantId) continue; // entity-level sync only
    if (row.storeId && row.storeId !== storeId) continue;
    if (row.fieldPath !== path && !path.startsWith(`${row.fieldPath}.`)) continue;
    const rank = row.fieldPath.length * 2 + (row.storeId ? 1 : 0);
    if (!best || rank > best.rank) best = { row, rank };
  }
  return (best?.row.owner as Owner | undefined) ?? 'store';
}

export interface ApplyOutcome {
  entityId: string;
  created: boolean;
  /** Field paths written locally (a created entity lists every field). */
  changed: string[];
  /** Local on hand moved to the store's figure by this many units (0 when equal or not given). */
  stockDelta: number;
}

/**
 * Creates or updates the local twin of one store entity, in one transaction with its link.
 * Idempotent: applying the same store state twice changes nothing the second time.
 */
export async function applyRemoteEntity(scope: SyncScope, remote: RemoteEntity): Promise<ApplyOutcome> {
  const org = scope.organizationId;
  const store = scope.store;
  const values = remoteFieldValues(remote);
  return withTransaction({ db: scope.db }, async (tx) => {
    const ctx = catalogCtx(scope, tx);
    let link = await tx.channelLink.findUnique({ where: { storeId_remoteId: { storeId: store.id, remoteId: remote.remoteId } } });
    let entity = link ? await tx.catalogEntity.findFirst({ where: { id: link.entityId, organizationId: org } }) : null;
    if (link && !entity) {
      // Deleted locally: the store still sells it, so it comes back.
      await tx.channelLink.delete({ where: { id: link.id } });
      link = null;
    }
    let created = false;
    let changed: string[];
    if (!link || !entity) {
      const taken = await tx.catalogEntity.findFirst({ where: { organizationId: org, slug: remote.slug }, select: { id: true } });
      // Another entity has the slug locally (the platform's own, or another store's): keep both.
      const slug = taken ? `${remote.slug}-${store.id.slice(0, 8)}` : remote.slug;
      const view = await createEntity(ctx, {
        type: remote.type,
        slug,
        status: remote.status,
        metadata: values.metadata as Record<string, unknown>,
        locale: 'en',
        sourceStoreId: store.id,
      });
      for (const [locale, attrs] of Object.entries(remote.attributes)) await setAttributes(ctx, view.id, locale, attrs);
      await tx.channelLink.create({
        data: { organizationId: org, storeId: store.id, remoteId: remote.remoteId, entityId: view.id, remoteValues: values as Prisma.InputJsonObject },
      });
      entity = await tx.catalogEntity.findUniqueOrThrow({ where: { id: view.id } });
      created = true;
      changed = Object.keys(values);
    } else {
      changed = await applyFields(ctx, tx, scope, entity, link.remoteValues as Record<string, unknown>, values);
      await tx.channelLink.update({ where: { id: link.id }, data: { remoteValues: values as Prisma.InputJsonObject, syncedAt: new Date(), status: 'active' } });
    }
    const stockDelta = remote.available == null ? 0 : await setStock(ctx, tx, store, entity.id, remote.available);
    return { entityId: entity.id, created, changed, stockDelta };
  });
}

async function applyFields(
  ctx: CatalogCtx,
  tx: Tx,
  scope: SyncScope,
  entity: { id: string; status: string; metadata: unknown },
  previous: Record<string, unknown>,
  next: Record<string, unknown>,
): Promise<string[]> {
  // One after another: a transaction's client runs one statement at a time anyway.
  const ownership = await tx.catalogFieldOwnership.findMany({
    where: { organizationId: scope.organizationId, entityId: entity.id },
    select: { fieldPath: true, owner: true, storeId: true, variantId: true },
  });
  const attributeRows = await tx.catalogAttributes.findMany({ where: { organizationId: scope.organizationId, entityId: entity.id } });
  // Local ownership keys are not the store's to compare or overwrite (OWNERSHIP_KEYS).
  const local: Record<string, unknown> = { status: entity.status, metadata: withoutOwnership(entity.metadata) };
  for (const row of attributeRows) for (const field of ATTRIBUTE_FIELDS) local[`attributes.${row.locale}.${field}`] = row[field];

  const writes = Object.keys(next).filter((path) => {
    const owner = ownerOf(path, ownership, scope.store.id);
    if (owner === 'platform') return false;
    if (owner === 'shared' && path in previous && isDeepStrictEqual(previous[path], next[path])) return false;
    return !isDeepStrictEqual(local[path] ?? null, next[path] ?? null);
  });
  if (!writes.length) return [];

  const entityPatch: { status?: RemoteEntity['status']; metadata?: Record<string, unknown> } = {};
  if (writes.includes('status')) entityPatch.status = next.status as RemoteEntity['status'];
  if (writes.includes('metadata')) entityPatch.metadata = { ...(next.metadata as Record<string, unknown>), ...ownershipOf(entity.metadata) };
  if (Object.keys(entityPatch).length) await updateEntity(ctx, entity.id, { ...entityPatch, locale: 'en' });

  // PUT attributes replaces a locale's row: start from the local row, overlay the written fields.
  const locales = [...new Set(writes.filter((p) => p.startsWith('attributes.')).map((p) => p.split('.')[1]!))];
  for (const locale of locales) {
    const row = attributeRows.find((r) => r.locale === locale);
    const merged: RemoteAttributes = {
      title: row?.title ?? null,
      description: row?.description ?? null,
      seoTitle: row?.seoTitle ?? null,
      seoDescription: row?.seoDescription ?? null,
    };
    for (const field of ATTRIBUTE_FIELDS) {
      const path = `attributes.${locale}.${field}`;
      if (writes.includes(path)) merged[field] = (next[path] as string | null) ?? null;
    }
    await setAttributes(ctx, entity.id, locale, merged);
  }
  return writes;
}

/**
 * Sets the entity's on hand in the store's warehouse to the store's available units (a
 * `correction` movement with the store as reference), under a lock on the level so a local sale
 * between read and write cannot be lost. Returns the change.
 */
export async function setStock(ctx: CatalogCtx, tx: Tx, store: Pick<ChannelStore, 'id' | 'warehouseId'>, entityId: string, target: number): Promise<number> {
  const want = Math.max(0, Math.floor(target));
  const rows = await tx.$queryRaw<Array<{ on_hand: number }>>`
    select on_hand from inventory_levels
    where warehouse_id = ${store.warehouseId}::uuid and entity_id = ${entityId}::uuid and variant_key = ''
    for update`;
  const delta = want - (rows[0]?.on_hand ?? 0);
  if (delta === 0) return 0;
  await adjustStock(
    { db: tx, organization: ctx.organization, actor: ctx.actor, requestId: ctx.requestId },
    { entityId, warehouseId: store.warehouseId, type: 'correction', quantity: delta, reference: `channel:${store.id}`, note: 'stock at the connected store' },
  );
  return delta;
}

/** Stock of already linked entities: one connector call per 100 links. */
export async function syncStock(scope: SyncScope, links: ReadonlyArray<{ remoteId: string; entityId: string }>, levels: Map<string, number>): Promise<{ changed: number }> {
  // One read for the batch; only levels that differ get a transaction (re-checked under lock).
  const tracked = links.filter((l) => levels.has(l.remoteId));
  if (!tracked.length) return { changed: 0 };
  const current = await scope.db.inventoryLevel.findMany({
    where: { warehouseId: scope.store.warehouseId, variantKey: '', entityId: { in: tracked.map((l) => l.entityId) } },
    select: { entityId: true, onHand: true },
  });
  const onHand = new Map(current.map((c) => [c.entityId, c.onHand]));
  let changed = 0;
  for (const link of tracked) {
    const target = levels.get(link.remoteId)!;
    if ((onHand.get(link.entityId) ?? 0) === Math.max(0, Math.floor(target))) continue;
    const delta = await withTransaction({ db: scope.db }, (tx) => setStock(catalogCtx(scope, tx), tx, scope.store, link.entityId, target));
    if (delta !== 0) changed += 1;
  }
  return { changed };
}

/** The store dropped the entity: archive the local twin when the store owns its status, and mark the link removed. */
export async function archiveRemoved(scope: SyncScope, link: { id: string; entityId: string }): Promise<void> {
  await withTransaction({ db: scope.db }, async (tx) => {
    const ctx = catalogCtx(scope, tx);
    const entity = await tx.catalogEntity.findFirst({ where: { id: link.entityId, organizationId: scope.organizationId }, select: { id: true, status: true } });
    if (entity && entity.status !== 'archived') {
      const ownership = await tx.catalogFieldOwnership.findMany({
        where: { organizationId: scope.organizationId, entityId: entity.id },
        select: { fieldPath: true, owner: true, storeId: true, variantId: true },
      });
      if (ownerOf('status', ownership, scope.store.id) !== 'platform') await updateEntity(ctx, entity.id, { status: 'archived', locale: 'en' });
    }
    await tx.channelLink.update({ where: { id: link.id }, data: { status: 'removed', syncedAt: new Date() } });
  });
}
