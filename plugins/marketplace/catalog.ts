// The marketplace's part of catalog writes. An entity's `metadata.vendorId` names the vendor it
// belongs to: checkout splits sub-orders by it and payouts follow them, so it must name a vendor
// of the organization. Vendors cannot set it (the catalog stamps their own); staff set it here.
import type { Tx } from '../../src/db/client.js';
import { validationFailed } from '../../src/errors.js';
import type { HookHandler } from '../../src/events/hooks.js';
import type {} from '../../src/modules/catalog/hooks.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const checkVendorMetadata: HookHandler<'catalog.beforeMetadataWrite'> = async ({ metadata, previous }, ctx) => {
  const vendorId = metadata.vendorId;
  // Absent, cleared, or unchanged (a vendor vanished since is not this write's doing).
  if (vendorId === undefined || vendorId === null || vendorId === previous?.vendorId) return;
  const db = (ctx.tx as Tx | undefined) ?? ctx.db;
  const found =
    typeof vendorId === 'string' && UUID.test(vendorId)
      ? await db.marketplaceVendor.findFirst({ where: { id: vendorId.toLowerCase(), organizationId: ctx.organization.id }, select: { id: true } })
      : null;
  if (!found) throw validationFailed([{ field: 'metadata.vendorId', message: 'is not a vendor of this organization' }]);
};
