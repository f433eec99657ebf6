// The expiry sweep `gift-cards/expire` (scheduled by expiry-schedule.ts at each card's expiry):
// every card of the organization past its expiry with a balance left gets an `expire` ledger entry
// that takes the balance to zero, so the ledger of an expired card sums to zero and the
// outstanding balance of the organization's cards is what can still be spent. Disabled cards
// lapse too: the balance they kept on record expires with them.
//
// Idempotent: each card is locked and re-read in its own transaction, and a card at zero gets no
// entry, so two sweeps (two cards' jobs, a retry, two workers) write one entry per card. Checkout
// and lookups refuse an expired card by its expiresAt whether or not the sweep has run.
import { withTransaction } from '../../db/transaction.js';
import { defineTask } from '../../jobs/tasks.js';
import { lockCardById, moveCard } from './ledger.js';
import { EXPIRE_TASK } from './expiry-schedule.js';

export { EXPIRE_TASK, scheduleExpirySweep } from './expiry-schedule.js';

/** Cards per read: a sweep pages through them (a large organization's backlog after downtime). */
const PAGE = 200;

defineTask({
  slug: EXPIRE_TASK,
  retries: { attempts: 5, backoff: { type: 'exponential', delay: 30_000 } },
  // One sweep of an organization at a time: concurrent ones would only queue on the same locks.
  concurrency: { key: () => 'sweep' },
  async handler(_input, ctx) {
    const now = new Date();
    let expired = 0;
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const due = await ctx.db.giftCard.findMany({
        where: { organizationId: ctx.organizationId, expiresAt: { lte: now }, balance: { gt: 0n }, id: { gt: after } },
        orderBy: { id: 'asc' },
        take: PAGE,
        select: { id: true },
      });
      for (const { id } of due) {
        const moved = await withTransaction({ db: ctx.db }, async (tx) => {
          const card = await lockCardById(tx, ctx.organizationId, id);
          if (!card || card.balance <= 0n || !card.expiresAt || card.expiresAt > now) return false;
          await moveCard(tx, card, { organizationId: ctx.organizationId, kind: 'expire', amount: -card.balance, note: `expired ${card.expiresAt.toISOString()}` });
          return true;
        });
        if (moved) expired += 1;
      }
      if (due.length < PAGE) break;
      after = due[due.length - 1]?.id ?? after;
    }
    return { expired };
  },
});
