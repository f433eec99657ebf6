-- Payment attempts that ended without a payment (issue 27): the provider declined, or the
-- transaction rolled back and the authorization was given back. A payment's id is derived from
-- its logical attempt (payments/attempts.ts); an ended attempt moves the next try to a new id and
-- provider idempotency key, while a crash (nothing recorded) lets the retry reuse the provider's
-- authorization.
CREATE TABLE "payment_attempt_ends" (
    "root" UUID NOT NULL,
    "attempt" INTEGER NOT NULL,
    "organization_id" UUID NOT NULL,
    "reason" TEXT NOT NULL,
    "ended_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_attempt_ends_pkey" PRIMARY KEY ("root","attempt")
);

CREATE INDEX "payment_attempt_ends_organization_id_ended_at_idx" ON "payment_attempt_ends"("organization_id", "ended_at");
