// Vendor performance over a window (default 90 days), one statement: sub-orders placed in it,
// the share shipped within `shipWithinHours` of being placed (on-time), cancelled, disputed, and
// the average published rating.
import { num, type Ctx } from './shared.js';
import { findVendor } from './vendors.js';

export async function vendorPerformance(ctx: Ctx, vendorId: string, input: { days: number }, shipWithinHours: number) {
  await findVendor(ctx.db, ctx.organization.id, vendorId);
  const since = new Date(Date.now() - input.days * 86_400_000);
  const [row] = await ctx.db.$queryRaw<Array<{ orders: bigint; shipped: bigint; on_time: bigint; cancelled: bigint; disputed: bigint; rating: number | null; reviews: bigint }>>`
    with s as (
      select * from plugin_marketplace_sub_orders
      where organization_id = ${ctx.organization.id}::uuid and vendor_id = ${vendorId}::uuid and created_at >= ${since}
    )
    select (select count(*) from s) as orders,
           (select count(*) from s where shipped_at is not null) as shipped,
           (select count(*) from s where shipped_at is not null and shipped_at <= created_at + make_interval(hours => ${shipWithinHours}::int)) as on_time,
           (select count(*) from s where status = 'cancelled') as cancelled,
           (select count(distinct d.sub_order_id) from plugin_marketplace_disputes d join s on s.id = d.sub_order_id where d.organization_id = ${ctx.organization.id}::uuid) as disputed,
           (select avg(rating)::float8 from plugin_marketplace_reviews r where r.organization_id = ${ctx.organization.id}::uuid and r.vendor_id = ${vendorId}::uuid and r.status = 'published' and r.created_at >= ${since}) as rating,
           (select count(*) from plugin_marketplace_reviews r where r.organization_id = ${ctx.organization.id}::uuid and r.vendor_id = ${vendorId}::uuid and r.status = 'published' and r.created_at >= ${since}) as reviews`;
  const orders = num(row!.orders);
  const rate = (n: bigint, d: number) => (d ? Math.round((num(n) / d) * 10_000) / 10_000 : null);
  return {
    vendorId,
    windowDays: input.days,
    since: since.toISOString(),
    orderCount: orders,
    onTimeShipRate: rate(row!.on_time, num(row!.shipped)),
    cancellationRate: rate(row!.cancelled, orders),
    disputeRate: rate(row!.disputed, orders),
    averageRating: row!.rating === null ? null : Math.round(row!.rating * 100) / 100,
    reviewCount: num(row!.reviews),
    shipWithinHours,
  };
}
