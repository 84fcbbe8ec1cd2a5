-- The request id becomes the key of usage_events, and the serial id goes: since 0011 every event
-- updated two unique B-trees (the serial key and the request id's index) and a sequence, and only
-- the request id's uniqueness is needed. The key takes over the index 0011 built (no rebuild, no
-- long lock on a large table); dropping the column drops its sequence.
ALTER TABLE "usage_events" DROP CONSTRAINT "usage_events_pkey";--> statement-breakpoint
ALTER TABLE "usage_events" DROP COLUMN "id";--> statement-breakpoint
ALTER TABLE "usage_events" ADD CONSTRAINT "usage_events_pkey" PRIMARY KEY USING INDEX "usage_events_request_id_idx";
