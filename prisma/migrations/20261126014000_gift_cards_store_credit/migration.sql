-- Gift cards and store credit (issue 27 items 5 and 6). Both are balances with an append-only
-- ledger; the balance column is the sum of the ledger, kept beside it so a redemption locks one
-- row (SELECT ... FOR UPDATE) instead of summing. CHECKs keep balances from going negative even
-- if a code path forgets to lock.

CREATE TABLE "gift_cards" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    -- sha256 of the normalised code: the code itself is shown once, on issue, and never stored.
    "code_hash" TEXT NOT NULL,
    "last4" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "initial_balance" BIGINT NOT NULL,
    "balance" BIGINT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "expires_at" TIMESTAMPTZ(3),
    "recipient_email" TEXT,
    "recipient_name" TEXT,
    "note" TEXT,
    "source_order_id" UUID,
    "created_by" TEXT,
    "disabled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "gift_cards_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "gift_cards_balance_nonnegative" CHECK ("balance" >= 0),
    CONSTRAINT "gift_cards_initial_positive" CHECK ("initial_balance" > 0),
    CONSTRAINT "gift_cards_status" CHECK ("status" IN ('active', 'disabled'))
);
CREATE UNIQUE INDEX "gift_cards_organization_id_code_hash_key" ON "gift_cards"("organization_id", "code_hash");
CREATE INDEX "gift_cards_organization_id_created_at_idx" ON "gift_cards"("organization_id", "created_at");

CREATE TABLE "gift_card_entries" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "gift_card_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    -- Signed: credits positive, debits negative.
    "amount" BIGINT NOT NULL,
    "balance_after" BIGINT NOT NULL,
    "order_id" UUID,
    "payment_id" UUID,
    "note" TEXT,
    "actor_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "gift_card_entries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "gift_card_entries_kind" CHECK ("kind" IN ('issue', 'redeem', 'refund_credit', 'adjust', 'expire')),
    CONSTRAINT "gift_card_entries_balance_after_nonnegative" CHECK ("balance_after" >= 0),
    CONSTRAINT "gift_card_entries_gift_card_id_fkey" FOREIGN KEY ("gift_card_id") REFERENCES "gift_cards"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "gift_card_entries_gift_card_id_created_at_idx" ON "gift_card_entries"("gift_card_id", "created_at");
CREATE INDEX "gift_card_entries_organization_id_order_id_idx" ON "gift_card_entries"("organization_id", "order_id");

CREATE TABLE "store_credit_accounts" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "customer_id" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "balance" BIGINT NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "store_credit_accounts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "store_credit_accounts_balance_nonnegative" CHECK ("balance" >= 0)
);
CREATE UNIQUE INDEX "store_credit_accounts_organization_id_customer_id_currency_key" ON "store_credit_accounts"("organization_id", "customer_id", "currency");

CREATE TABLE "store_credit_entries" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "customer_id" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    -- Signed: credits positive, debits negative.
    "amount" BIGINT NOT NULL,
    "balance_after" BIGINT NOT NULL,
    "reason" TEXT NOT NULL,
    "source_type" TEXT NOT NULL,
    "source_id" TEXT,
    "actor_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "store_credit_entries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "store_credit_entries_amount_nonzero" CHECK ("amount" <> 0),
    CONSTRAINT "store_credit_entries_balance_after_nonnegative" CHECK ("balance_after" >= 0),
    CONSTRAINT "store_credit_entries_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "store_credit_accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "store_credit_entries_organization_id_customer_id_created_at_idx" ON "store_credit_entries"("organization_id", "customer_id", "created_at");
