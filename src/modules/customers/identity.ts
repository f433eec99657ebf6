// Customers follow identity: better-auth's user hooks (auth/better-auth.ts) call these. A user who
// signs up as a customer gets a customer record (event customers.create) whose id is the user's
// id, so carts and orders keep naming customers by that id. Guest orders placed with the same
// email become the customer's only once better-auth has verified the email: an unverified
// address proves nothing about who owns those orders.
import type { AuthUserRecord, UserLifecycle } from '../../auth/better-auth.js';
import type { Db, Tx } from '../../db/client.js';
import { recordEvent } from '../../events/outbox.js';
import { customerPayload } from './views.js';
import './events.js';

type AuthUser = AuthUserRecord;

export async function customerForNewUser(db: Db, user: AuthUser): Promise<void> {
  if ((user.role ?? 'customer') !== 'customer' || !user.organizationId) return;
  const organizationId = user.organizationId;
  await db.$transaction(async (tx) => {
    const row = await tx.customer.create({
      data: { id: user.id, organizationId, userId: user.id, email: user.email.toLowerCase(), name: user.name },
    });
    await recordEvent(tx, { organizationId, actorId: user.id, requestId: null }, 'customers.create', { customer: customerPayload(row) });
    if (user.emailVerified) await claimGuestOrders(tx, organizationId, user.id, user.email);
  });
}

export async function customerForUpdatedUser(db: Db, user: AuthUser): Promise<void> {
  if (!user.emailVerified || !user.organizationId) return;
  const organizationId = user.organizationId;
  await db.$transaction(async (tx) => {
    const customer = await tx.customer.findUnique({ where: { id: user.id }, select: { id: true, email: true } });
    if (!customer) return;
    // better-auth's change-email flow writes the new, verified address on the user: keep the profile in step.
    if (customer.email !== user.email.toLowerCase()) {
      await tx.customer.update({ where: { id: customer.id }, data: { email: user.email.toLowerCase() } });
    }
    await claimGuestOrders(tx, organizationId, customer.id, user.email);
  });
}

/** Guest orders of the organization placed with this email (any case) become the customer's. */
async function claimGuestOrders(tx: Tx, organizationId: string, customerId: string, email: string): Promise<number> {
  return tx.$executeRaw`
    update orders set customer_id = ${customerId}, updated_at = now()
    where organization_id = ${organizationId}::uuid and customer_id is null and lower(customer_email) = lower(${email})`;
}

/** What createAuth's `users` option takes (the entry files pass it). */
export const customerLifecycle: UserLifecycle = { created: customerForNewUser, updated: customerForUpdatedUser };
