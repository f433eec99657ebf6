// Who may name customer groups when a price is resolved. Group prices and modifiers are
// negotiated terms (see PRICING.lists): a storefront server or pricing staff (any pricing
// permission) resolve for whichever shopper they serve; anyone else may name only the groups of
// their own customer profile, and naming another group is 403, not a silent fallback, so a
// client bug shows. The cart and checkout take groups from servers and staff only (checkout).
import type { RequestContext } from '../../context.js';
import { hasAnyPermission } from '../../auth/permissions.js';
import { AppError } from '../../errors.js';

const ANY_GROUP = ['pricing:read', 'pricing:update', 'pricing:manage'];

type GroupsCtx = Pick<RequestContext, 'db' | 'organization' | 'actor' | 'loaders'>;

/** The caller's own groups, read once per request (the graph asks per field). */
function ownGroups(ctx: GroupsCtx): Promise<string[]> {
  const key = 'pricing.ownGroups';
  let found = ctx.loaders.get(key) as Promise<string[]> | undefined;
  if (!found) {
    const customerId = ctx.actor?.customerId;
    found = customerId
      ? ctx.db.customer.findFirst({ where: { id: customerId, organizationId: ctx.organization.id }, select: { customerGroupIds: true } }).then((row) => row?.customerGroupIds ?? [])
      : Promise.resolve([]);
    ctx.loaders.set(key, found);
  }
  return found;
}

export async function assertMayResolveGroups(ctx: GroupsCtx, groups: readonly string[]): Promise<void> {
  if (!groups.length || hasAnyPermission(ctx.actor?.permissions ?? [], ANY_GROUP)) return;
  const own = await ownGroups(ctx);
  const foreign = groups.filter((group) => !own.includes(group));
  if (foreign.length)
    throw new AppError('FORBIDDEN', 'customerGroupIds: only your own customer groups can be resolved without a pricing permission', { customerGroupIds: foreign });
}
