// Vendors and their onboarding documents. Lifecycle (README): pending → approved | rejected;
// approved ↔ suspended. A vendor is approved only when every required document kind has an
// approved document. Documents are media assets (uploaded through POST /api/media) referenced
// by id; the asset must belong to the organization.
import { Prisma } from '../../src/generated/prisma/client.js';
import type { Tx } from '../../src/db/client.js';
import { withTransaction } from '../../src/db/transaction.js';
import { AppError, conflict, notFound, validationFailed } from '../../src/errors.js';
import { assertMove, emit, iso, page, type Ctx, type Moves } from './shared.js';

export const VENDOR_STATUSES = ['pending', 'approved', 'rejected', 'suspended'] as const;
export type VendorStatus = (typeof VENDOR_STATUSES)[number];
export const VENDOR_MOVES: Moves<VendorStatus> = { pending: ['approved', 'rejected'], approved: ['suspended'], suspended: ['approved'], rejected: [] };

export const DOCUMENT_KINDS = ['business_registration', 'tax_form', 'bank_proof'] as const;
export const DOCUMENT_STATUSES = ['pending', 'approved', 'rejected'] as const;
const DOCUMENT_MOVES: Moves<(typeof DOCUMENT_STATUSES)[number]> = { pending: ['approved', 'rejected'], rejected: ['approved'], approved: ['rejected'] };

type VendorRow = Prisma.MarketplaceVendorGetPayload<object>;
type DocumentRow = Prisma.MarketplaceVendorDocumentGetPayload<object>;

export function vendorView(v: VendorRow) {
  return {
    id: v.id,
    name: v.name,
    email: v.email,
    description: v.description,
    status: v.status as VendorStatus,
    statusReason: v.statusReason,
    userId: v.userId,
    stripeAccountId: v.stripeAccountId,
    approvedAt: iso(v.approvedAt),
    createdAt: v.createdAt.toISOString(),
    updatedAt: v.updatedAt.toISOString(),
  };
}
/** What a vendor sees of itself in the portal (no Stripe account id, no internal link). */
export function publicVendorView(v: VendorRow) {
  const { stripeAccountId: _s, userId: _u, ...rest } = vendorView(v);
  return rest;
}

export function documentView(d: DocumentRow) {
  return {
    id: d.id,
    vendorId: d.vendorId,
    kind: d.kind,
    mediaId: d.mediaId,
    status: d.status,
    reason: d.reason,
    reviewedAt: iso(d.reviewedAt),
    createdAt: d.createdAt.toISOString(),
  };
}

export async function findVendor(db: Ctx['db'] | Tx, organizationId: string, id: string): Promise<VendorRow> {
  const row = await db.marketplaceVendor.findFirst({ where: { id, organizationId } });
  if (!row) throw notFound('Vendor');
  return row;
}

/** Locks the vendor row (status moves of one vendor run one after the other). */
async function lockVendor(tx: Tx, organizationId: string, id: string): Promise<VendorRow> {
  const rows = await tx.$queryRaw<Array<{ id: string }>>`select id from plugin_marketplace_vendors where id = ${id}::uuid and organization_id = ${organizationId}::uuid for update`;
  if (!rows.length) throw notFound('Vendor');
  return tx.marketplaceVendor.findUniqueOrThrow({ where: { id } });
}

/** A user linked to a vendor must be a user of the organization, linked to no other vendor. */
async function checkUser(db: Ctx['db'] | Tx, organizationId: string, userId: string, vendorId: string | null): Promise<void> {
  const user = await db.user.findFirst({ where: { id: userId, organizationId }, select: { id: true } });
  if (!user) throw validationFailed([{ field: 'userId', message: 'is not a user of this organization' }]);
  const other = await db.marketplaceVendor.findFirst({ where: { organizationId, userId, ...(vendorId ? { id: { not: vendorId } } : {}) }, select: { id: true } });
  if (other) throw conflict('This user already acts for another vendor', { fields: ['userId'] });
}

export interface VendorInput {
  name: string;
  email: string;
  description?: string | null;
  userId?: string | null;
  stripeAccountId?: string | null;
}

export async function createVendor(ctx: Ctx, input: VendorInput) {
  return withTransaction(ctx, async (tx) => {
    if (input.userId) await checkUser(tx, ctx.organization.id, input.userId, null);
    const row = await tx.marketplaceVendor.create({
      data: {
        organizationId: ctx.organization.id,
        name: input.name,
        email: input.email.toLowerCase(),
        description: input.description ?? null,
        userId: input.userId ?? null,
        stripeAccountId: input.stripeAccountId ?? null,
      },
    });
    await emit(tx, ctx, 'marketplace.vendor.create', { vendor: vendorView(row) });
    return vendorView(row);
  });
}

export async function listVendors(ctx: Ctx, input: { status?: VendorStatus; search?: string; limit: number; offset: number }) {
  const where: Prisma.MarketplaceVendorWhereInput = {
    organizationId: ctx.organization.id,
    ...(input.status ? { status: input.status } : {}),
    ...(input.search ? { name: { contains: input.search, mode: 'insensitive' } } : {}),
  };
  const [rows, total] = await Promise.all([
    ctx.db.marketplaceVendor.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: input.limit, skip: input.offset }),
    ctx.db.marketplaceVendor.count({ where }),
  ]);
  return page(rows.map(vendorView), total, input.limit, input.offset);
}

export async function getVendor(ctx: Ctx, id: string) {
  return vendorView(await findVendor(ctx.db, ctx.organization.id, id));
}

export async function updateVendor(ctx: Ctx, id: string, patch: Partial<VendorInput>, options: { portal?: boolean } = {}) {
  return withTransaction(ctx, async (tx) => {
    const before = await lockVendor(tx, ctx.organization.id, id);
    if (patch.userId) await checkUser(tx, ctx.organization.id, patch.userId, id);
    const row = await tx.marketplaceVendor.update({
      where: { id: before.id },
      data: {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.email !== undefined ? { email: patch.email.toLowerCase() } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        ...(patch.userId !== undefined ? { userId: patch.userId } : {}),
        ...(patch.stripeAccountId !== undefined ? { stripeAccountId: patch.stripeAccountId } : {}),
      },
    });
    await emit(tx, ctx, 'marketplace.vendor.update', { vendor: vendorView(row) });
    return options.portal ? publicVendorView(row) : vendorView(row);
  });
}

/** The required document kinds that have no approved document yet. */
async function missingDocuments(tx: Tx, organizationId: string, vendorId: string, required: readonly string[]): Promise<string[]> {
  const approved = await tx.marketplaceVendorDocument.findMany({ where: { organizationId, vendorId, status: 'approved' }, select: { kind: true } });
  const have = new Set(approved.map((d) => d.kind));
  return required.filter((k) => !have.has(k));
}

/**
 * `from` narrows the table for routes that name one move: approve is pending → approved (with
 * the documents check), reinstate is suspended → approved (no second check).
 */
export async function moveVendor(ctx: Ctx, id: string, to: VendorStatus, reason: string | null, requiredDocuments: readonly string[], from?: VendorStatus) {
  return withTransaction(ctx, async (tx) => {
    const vendor = await lockVendor(tx, ctx.organization.id, id);
    if (from && vendor.status !== from) {
      throw new AppError('INVALID_TRANSITION', `a ${vendor.status} vendor cannot become ${to} this way (only a ${from} one)`, {
        from: vendor.status,
        to,
        allowed: VENDOR_MOVES[vendor.status as VendorStatus] ?? [],
      });
    }
    assertMove('vendor', VENDOR_MOVES, vendor.status, to);
    if (to === 'approved') {
      const missing = await missingDocuments(tx, ctx.organization.id, id, requiredDocuments);
      if (missing.length) {
        throw new AppError(
          'VALIDATION_FAILED',
          `the vendor cannot be approved before its required documents are: ${missing.join(', ')}`,
          missing.map((kind) => ({ field: 'documents', message: `${kind} has no approved document` })),
        );
      }
    }
    const row = await tx.marketplaceVendor.update({
      where: { id },
      data: { status: to, statusReason: reason, ...(to === 'approved' && !vendor.approvedAt ? { approvedAt: new Date() } : {}) },
    });
    await emit(tx, ctx, 'marketplace.vendor.statusChange', { vendor: vendorView(row), from: vendor.status, to });
    return vendorView(row);
  });
}

export async function listDocuments(ctx: Ctx, vendorId: string) {
  await findVendor(ctx.db, ctx.organization.id, vendorId);
  const rows = await ctx.db.marketplaceVendorDocument.findMany({ where: { organizationId: ctx.organization.id, vendorId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return rows.map(documentView);
}

export async function addDocument(ctx: Ctx, vendorId: string, input: { kind: string; mediaId: string }) {
  return withTransaction(ctx, async (tx) => {
    await findVendor(tx, ctx.organization.id, vendorId);
    const asset = await tx.mediaAsset.findFirst({ where: { id: input.mediaId, organizationId: ctx.organization.id }, select: { id: true } });
    if (!asset) throw validationFailed([{ field: 'mediaId', message: 'is not a media asset of this organization (upload it with POST /api/media first)' }]);
    const row = await tx.marketplaceVendorDocument.create({ data: { organizationId: ctx.organization.id, vendorId, kind: input.kind, mediaId: input.mediaId } });
    await emit(tx, ctx, 'marketplace.vendorDocument.update', { document: documentView(row) });
    return documentView(row);
  });
}

export async function reviewDocument(ctx: Ctx, vendorId: string, documentId: string, to: 'approved' | 'rejected', reason: string | null) {
  return withTransaction(ctx, async (tx) => {
    const doc = await tx.marketplaceVendorDocument.findFirst({ where: { id: documentId, vendorId, organizationId: ctx.organization.id } });
    if (!doc) throw notFound('Document');
    assertMove('document', DOCUMENT_MOVES, doc.status, to);
    const row = await tx.marketplaceVendorDocument.update({ where: { id: doc.id }, data: { status: to, reason, reviewedAt: new Date() } });
    await emit(tx, ctx, 'marketplace.vendorDocument.update', { document: documentView(row) });
    return documentView(row);
  });
}
