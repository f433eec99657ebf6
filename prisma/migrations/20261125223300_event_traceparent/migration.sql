-- The W3C traceparent of the request that recorded the event (null when tracing is off), so
-- the dispatcher's webhook deliveries continue that request's trace (README: Operating → Traces).
ALTER TABLE "events" ADD COLUMN "traceparent" TEXT;
