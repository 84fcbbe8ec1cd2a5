ALTER TABLE "usage_daily" ADD COLUMN "own_key_tokens" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_events" ADD COLUMN "key_source" text;