-- CreateTable
CREATE TABLE "jobs" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "queue" TEXT NOT NULL DEFAULT 'default',
    "task_slug" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "input" JSONB NOT NULL DEFAULT '{}',
    "output" JSONB,
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "max_attempts" INTEGER NOT NULL DEFAULT 1,
    "wait_until" TIMESTAMPTZ(3),
    "concurrency_key" TEXT,
    "exclusive" BOOLEAN NOT NULL DEFAULT true,
    "processing_started_at" TIMESTAMPTZ(3),
    "heartbeat_at" TIMESTAMPTZ(3),
    "locked_by" TEXT,
    "lock_token" UUID,
    "completed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "job_key_locks" (
    "organization_id" UUID NOT NULL,
    "concurrency_key" TEXT NOT NULL,
    "job_id" UUID NOT NULL,
    "lock_token" UUID NOT NULL,
    "locked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "job_key_locks_pkey" PRIMARY KEY ("organization_id","concurrency_key")
);

-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[],
    "description" TEXT,
    "secret" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "event_type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_status_code" INTEGER,
    "last_error" TEXT,
    "job_id" UUID,
    "delivered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_delivery_attempts" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "delivery_id" UUID NOT NULL,
    "attempt" INTEGER NOT NULL,
    "status_code" INTEGER,
    "duration_ms" INTEGER NOT NULL,
    "response_excerpt" TEXT,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_delivery_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "jobs_organization_id_created_at_idx" ON "jobs"("organization_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "job_key_locks_job_id_key" ON "job_key_locks"("job_id");

-- CreateIndex
CREATE INDEX "webhook_endpoints_organization_id_created_at_idx" ON "webhook_endpoints"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_organization_id_created_at_idx" ON "webhook_deliveries"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_organization_id_status_created_at_idx" ON "webhook_deliveries"("organization_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_idx" ON "webhook_deliveries"("endpoint_id", "created_at");

-- CreateIndex
CREATE INDEX "webhook_delivery_attempts_delivery_id_attempt_idx" ON "webhook_delivery_attempts"("delivery_id", "attempt");

-- AddForeignKey
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "job_key_locks" ADD CONSTRAINT "job_key_locks_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- ── Added by hand: what Prisma's schema language cannot express ──

-- The job and delivery state machines accept only their own states.
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_status_check" CHECK ("status" IN ('pending', 'processing', 'succeeded', 'failed'));
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_attempts_check" CHECK ("attempts" >= 0 AND "max_attempts" >= 1);
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_names_check" CHECK ("queue" <> '' AND "task_slug" <> '');
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_status_check" CHECK ("status" IN ('pending', 'succeeded', 'failed'));

-- Wake-ups: a job that becomes runnable notifies `commerce_jobs` (payload: its queue) and a new
-- outbox event notifies `commerce_events`, both delivered at commit. Workers LISTEN on them
-- instead of waiting for their poll interval; PostgreSQL folds identical notifications of one
-- transaction into one.
CREATE FUNCTION "commerce_notify_job"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('commerce_jobs', NEW."queue");
  RETURN NULL;
END
$$;

CREATE TRIGGER "jobs_notify_runnable" AFTER INSERT OR UPDATE OF "status" ON "jobs"
  FOR EACH ROW WHEN (NEW."status" = 'pending' AND (NEW."wait_until" IS NULL OR NEW."wait_until" <= now()))
  EXECUTE FUNCTION "commerce_notify_job"();

CREATE FUNCTION "commerce_notify_event"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('commerce_events', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER "events_notify_dispatcher" AFTER INSERT ON "events"
  FOR EACH STATEMENT EXECUTE FUNCTION "commerce_notify_event"();

-- The runner's lookups, each a partial index on the state it reads, so a state move adds index
-- entries only for the state it enters (see the comment on model Job in schema.prisma).
-- Claim: the oldest pending jobs of a queue.
CREATE INDEX "jobs_pending_claim_idx" ON "jobs"("queue", "created_at", "id") WHERE "status" = 'pending';
-- Head of an exclusive key, and supersedes: pending jobs of one organization and key by age.
CREATE INDEX "jobs_pending_key_idx" ON "jobs"("organization_id", "concurrency_key", "created_at", "id") WHERE "status" = 'pending' AND "concurrency_key" IS NOT NULL;
-- Reaper: processing jobs by heartbeat.
CREATE INDEX "jobs_processing_heartbeat_idx" ON "jobs"("heartbeat_at") WHERE "status" = 'processing';
-- GET /admin/jobs/failed: an organization's failed jobs, most recent first.
CREATE INDEX "jobs_failed_idx" ON "jobs"("organization_id", "updated_at" DESC) WHERE "status" = 'failed';
