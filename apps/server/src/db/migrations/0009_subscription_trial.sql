ALTER TABLE "subscriptions" ADD COLUMN "trial_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "trial_reminded_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "subscriptions_period_end_idx" ON "subscriptions" USING btree ("current_period_end");--> statement-breakpoint
CREATE INDEX "subscriptions_trial_reminder_idx" ON "subscriptions" USING btree ("trial_ends_at") WHERE "subscriptions"."trial_reminded_at" is null;--> statement-breakpoint
-- Accounts that were already on a paid plan (the subscription's or the account's, which billing
-- follows) or billed (any invoice) had no trial and do not get one now: their mark is set to a time
-- already past.
UPDATE "subscriptions" SET "trial_ends_at" = "created_at"
WHERE "plan" IN ('pro', 'enterprise')
  OR EXISTS (SELECT 1 FROM "users" WHERE "users"."id" = "subscriptions"."user_id" AND "users"."plan" IN ('pro', 'enterprise'))
  OR EXISTS (SELECT 1 FROM "invoices" WHERE "invoices"."user_id" = "subscriptions"."user_id");
