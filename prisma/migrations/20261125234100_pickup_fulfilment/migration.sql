-- Click & collect fulfilment (issue 25): pickup orders are marked ready for pickup, then picked
-- up, instead of being shipped.
ALTER TYPE "order_status" ADD VALUE IF NOT EXISTS 'ready_for_pickup' AFTER 'fulfilled';
ALTER TYPE "order_status" ADD VALUE IF NOT EXISTS 'picked_up' AFTER 'ready_for_pickup';
