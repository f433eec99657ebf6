-- Draft orders sent as payment links (issue 27): the link's token is kept only as its SHA-256
-- hash (unique: the public route finds the draft by it), with its expiry and where it was sent.
ALTER TABLE "draft_orders" ADD COLUMN "link_token_hash" TEXT;
ALTER TABLE "draft_orders" ADD COLUMN "link_expires_at" TIMESTAMPTZ(3);
ALTER TABLE "draft_orders" ADD COLUMN "sent_to" TEXT;
ALTER TABLE "draft_orders" ADD COLUMN "sent_at" TIMESTAMPTZ(3);

CREATE UNIQUE INDEX "draft_orders_link_token_hash_key" ON "draft_orders"("link_token_hash");
