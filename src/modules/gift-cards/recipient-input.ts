// The recipient a storefront names on a gift-card cart line (POST /carts/:id/items
// `giftCardRecipient`), as GraphQL input GiftCardRecipientInput.
import { z } from 'zod';
import { withGraphqlInput } from '../../graphql/zod-args.js';

export const giftCardRecipientInput = z
  .object({
    email: z.email().max(254).describe('Where the card is emailed'),
    name: z.string().trim().min(1).max(200).optional().describe('Shown in the email'),
    message: z.string().trim().max(1000).optional().describe('A personal message, shown in the email'),
  })
  .strict()
  .describe('Who receives the gift cards this line issues (gift-card products only); without it they go to the order email');
withGraphqlInput(giftCardRecipientInput, 'GiftCardRecipientInput');
