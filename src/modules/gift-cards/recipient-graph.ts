// GiftCardRecipient, the output shape of a gift-card line's recipient (CartItem, OrderLine).
import { builder } from '../../graphql/builder.js';
import type { GiftCardRecipient } from './product.js';

export const GiftCardRecipientRef = builder.objectRef<GiftCardRecipient>('GiftCardRecipient').implement({
  description: 'Who receives the gift cards a gift-card line issues (emailed with the code once the order is paid).',
  fields: (t) => ({
    email: t.string({ resolve: (r) => r.email }),
    name: t.string({ nullable: true, resolve: (r) => r.name ?? null }),
    message: t.string({ nullable: true, description: 'Personal message shown in the email', resolve: (r) => r.message ?? null }),
  }),
});
