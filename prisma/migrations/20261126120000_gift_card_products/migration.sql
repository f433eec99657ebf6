-- Gift-card products (issue 27, point 5): the recipient a storefront names on a cart line travels
-- to the order line; the cards a paid order line issues point back at it (so a refund of the line
-- finds them and a re-run of the issuing job counts what exists); a card a refund took back
-- records which refund did it.

-- AlterTable
ALTER TABLE "cart_items" ADD COLUMN "gift_card_recipient" JSONB;

-- AlterTable
ALTER TABLE "order_lines" ADD COLUMN "gift_card_recipient" JSONB;

-- AlterTable
ALTER TABLE "gift_cards" ADD COLUMN "source_order_line_id" UUID,
ADD COLUMN "revoked_at" TIMESTAMPTZ(3),
ADD COLUMN "revoked_by_refund_id" UUID;

-- CreateIndex
CREATE INDEX "gift_cards_source_order_line_id_idx" ON "gift_cards"("source_order_line_id");

-- CreateIndex (the expiry sweep: an organization's cards past their expiry)
CREATE INDEX "gift_cards_organization_id_expires_at_idx" ON "gift_cards"("organization_id", "expires_at");
