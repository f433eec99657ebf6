// Digital downloads of one of my orders: GET /me/orders/:orderId/downloads.
//
// What counts as digital: the spec's entity type `digitalDownload` (catalog entities have no
// separate "digital" flag; `type` is the spec's way to say what a thing is). The order line keeps
// the entity type it was sold as, so a later change of the catalog entity does not take away (or
// hand out) a download that was bought.
//
// What is downloadable: media attached to the line's entity with role `download` — at entity
// level, or at the level of the line's variant (a variant's own file wins nothing over the
// entity's: both are listed). Each comes back as a signed, expiring URL of
// GET /api/media/:id/content (src/modules/media/signing.ts): the shopper's browser fetches the
// bytes without a session, and the link stops working after media.signedUrlTtlSeconds.
//
// When: only once the order is paid. `paid` and `partially_refunded` (money was taken; lines
// refunded in full are left out) qualify; `awaiting_payment`, `partially_paid` (a short capture:
// the shop has not been paid for the goods yet), `refunded` and `voided` are 403 FORBIDDEN with
// details.paymentStatus — a refusal the shopper can understand ("not paid yet") rather than an
// empty list that looks like the files are missing.
import type { RequestContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { signMediaUrl } from '../media/signing.js';
// DOWNLOAD_ROLE: the attachment role of the thing sold (not a product picture); media hides it from catalog answers.
import { DOWNLOAD_ROLE } from '../media/service.js';
import { myOrder, type CustomersCtx } from './service.js';

export { DIGITAL_ENTITY_TYPES } from './digital.js';
import { DIGITAL_ENTITY_TYPES } from './digital.js';
/** Payment statuses under which the files are handed out. */
export const DOWNLOADABLE_PAYMENT_STATUSES: readonly string[] = ['paid', 'partially_refunded'];

export interface DownloadLink {
  lineItemId: string;
  entityId: string;
  variantId: string | null;
  mediaAssetId: string;
  title: string;
  alt: string | null;
  mimeType: string;
  size: number;
  url: string;
  expiresAt: string;
}

export interface OrderDownloads {
  orderId: string;
  orderNumber: string;
  paymentStatus: string;
  downloads: DownloadLink[];
}

export async function myOrderDownloads(ctx: CustomersCtx & Pick<RequestContext, 'config'>, idOrNumber: string): Promise<OrderDownloads> {
  // myOrder: the caller's own order only (another customer's is 404, an API key 403).
  const order = await myOrder(ctx, idOrNumber);
  if (!DOWNLOADABLE_PAYMENT_STATUSES.includes(order.paymentStatus)) {
    throw new AppError('FORBIDDEN', `Downloads are available once the order is paid (payment status: ${order.paymentStatus})`, { paymentStatus: order.paymentStatus });
  }
  const lines = order.lineItems.filter((l) => DIGITAL_ENTITY_TYPES.includes(l.entityType) && l.refundedQuantity < l.quantity);
  if (!lines.length) return { orderId: order.id, orderNumber: order.number, paymentStatus: order.paymentStatus, downloads: [] };
  // One statement for every line: attachments of the lines' entities with role download.
  const attachments = await ctx.db.mediaAttachment.findMany({
    where: { organizationId: ctx.organization.id, role: DOWNLOAD_ROLE, entityId: { in: [...new Set(lines.map((l) => l.entityId))] } },
    include: { asset: { select: { id: true, mimeType: true, size: true, alt: true } } },
    orderBy: [{ sortOrder: 'asc' }, { createdAt: 'asc' }],
  });
  const downloads: DownloadLink[] = [];
  for (const line of lines) {
    for (const a of attachments) {
      if (a.entityId !== line.entityId || (a.variantId !== null && a.variantId !== line.variantId)) continue;
      const signed = signMediaUrl(ctx.config, a.mediaAssetId);
      downloads.push({
        lineItemId: line.lineItemId,
        entityId: line.entityId,
        variantId: line.variantId,
        mediaAssetId: a.mediaAssetId,
        title: line.title,
        alt: a.asset.alt,
        mimeType: a.asset.mimeType,
        size: a.asset.size,
        url: signed.url,
        expiresAt: signed.expiresAt.toISOString(),
      });
    }
  }
  return { orderId: order.id, orderNumber: order.number, paymentStatus: order.paymentStatus, downloads };
}
