// Reviews of a vendor: a customer with a delivered sub-order of that vendor reviews it once
// (rating 1–5, text up to 2000 characters). New reviews wait for moderation (pending); an admin
// publishes or hides them. The public list shows published reviews only.
import { Prisma } from '../../src/generated/prisma/client.js';
import { withTransaction } from '../../src/db/transaction.js';
import { conflict, forbidden, notFound, validationFailed } from '../../src/errors.js';
import { assertMove, emit, page, type Ctx, type Moves } from './shared.js';

export const REVIEW_STATUSES = ['pending', 'published', 'hidden'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];
export const REVIEW_MOVES: Moves<ReviewStatus> = { pending: ['published', 'hidden'], published: ['hidden'], hidden: ['published'] };

type ReviewRow = Prisma.MarketplaceReviewGetPayload<object>;

export function reviewView(r: ReviewRow) {
  return {
    id: r.id,
    vendorId: r.vendorId,
    subOrderId: r.subOrderId,
    rating: r.rating,
    text: r.text,
    status: r.status as ReviewStatus,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export async function createReview(ctx: Ctx, vendorId: string, input: { subOrderId: string; rating: number; text?: string | null }) {
  const customerId = ctx.actor?.customerId;
  if (!customerId) throw forbidden('Reviews are written by customers with a delivered sub-order of the vendor');
  return withTransaction(ctx, async (tx) => {
    const vendor = await tx.marketplaceVendor.findFirst({ where: { id: vendorId, organizationId: ctx.organization.id }, select: { id: true } });
    if (!vendor) throw notFound('Vendor');
    const sub = await tx.marketplaceSubOrder.findFirst({ where: { id: input.subOrderId, organizationId: ctx.organization.id, vendorId, customerId } });
    if (!sub) throw validationFailed([{ field: 'subOrderId', message: 'is not one of your sub-orders with this vendor' }]);
    if (sub.status !== 'delivered') throw validationFailed([{ field: 'subOrderId', message: `only a delivered sub-order can be reviewed (this one is ${sub.status})` }]);
    const existing = await tx.marketplaceReview.findFirst({ where: { organizationId: ctx.organization.id, subOrderId: sub.id }, select: { id: true } });
    if (existing) throw conflict('This sub-order is already reviewed', { fields: ['subOrderId'] });
    const row = await tx.marketplaceReview.create({
      data: { organizationId: ctx.organization.id, vendorId, subOrderId: sub.id, customerId, rating: input.rating, text: input.text ?? null },
    });
    await emit(tx, ctx, 'marketplace.review.create', { review: reviewView(row) });
    return reviewView(row);
  });
}

export async function listReviews(ctx: Ctx, vendorId: string, input: { status?: ReviewStatus; limit: number; offset: number }, moderator: boolean) {
  const vendor = await ctx.db.marketplaceVendor.findFirst({ where: { id: vendorId, organizationId: ctx.organization.id }, select: { id: true } });
  if (!vendor) throw notFound('Vendor');
  const status = moderator ? input.status : 'published';
  const where = { organizationId: ctx.organization.id, vendorId, ...(status ? { status } : {}) };
  const [rows, total] = await Promise.all([
    ctx.db.marketplaceReview.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: input.limit, skip: input.offset }),
    ctx.db.marketplaceReview.count({ where }),
  ]);
  return page(rows.map(reviewView), total, input.limit, input.offset);
}

export async function moderateReview(ctx: Ctx, vendorId: string, reviewId: string, to: 'published' | 'hidden') {
  return withTransaction(ctx, async (tx) => {
    const review = await tx.marketplaceReview.findFirst({ where: { id: reviewId, vendorId, organizationId: ctx.organization.id } });
    if (!review) throw notFound('Review');
    assertMove('review', REVIEW_MOVES, review.status, to);
    const row = await tx.marketplaceReview.update({ where: { id: review.id }, data: { status: to } });
    await emit(tx, ctx, 'marketplace.review.update', { review: reviewView(row), from: review.status, to });
    return reviewView(row);
  });
}
