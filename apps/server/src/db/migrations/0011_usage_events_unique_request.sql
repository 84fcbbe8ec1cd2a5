-- A batch re-sent after its commit went unacknowledged (the connection dropped) was written twice.
-- Keep the first copy of each request's event, and take the copies removed out of the daily rollup
-- they were also counted in, so that `usage_daily` still sums `usage_events` exactly.
WITH "removed" AS (
  DELETE FROM "usage_events" WHERE "id" IN (
    SELECT "id" FROM (
      SELECT "id", row_number() OVER (PARTITION BY "request_id" ORDER BY "id") AS "copy" FROM "usage_events"
    ) AS "ranked" WHERE "copy" > 1
  )
  RETURNING "user_id", "created_at", "environment", "provider", "model", "status_code", "prompt_tokens", "completion_tokens", "cost_micros", "latency_ms", "key_source"
), "excess" AS (
  SELECT "user_id", ("created_at" AT TIME ZONE 'UTC')::date AS "day", "environment", "provider", "model",
    count(*) AS "requests",
    count(*) FILTER (WHERE "status_code" >= 400) AS "errors",
    sum("prompt_tokens") AS "prompt_tokens",
    sum("completion_tokens") AS "completion_tokens",
    sum("cost_micros") AS "cost_micros",
    sum("latency_ms") AS "latency_ms_sum",
    coalesce(sum("prompt_tokens" + "completion_tokens") FILTER (WHERE "key_source" = 'byok'), 0) AS "own_key_tokens"
  FROM "removed"
  GROUP BY 1, 2, 3, 4, 5
)
UPDATE "usage_daily" SET
  "requests" = "usage_daily"."requests" - "excess"."requests",
  "errors" = "usage_daily"."errors" - "excess"."errors",
  "prompt_tokens" = "usage_daily"."prompt_tokens" - "excess"."prompt_tokens",
  "completion_tokens" = "usage_daily"."completion_tokens" - "excess"."completion_tokens",
  "cost_micros" = "usage_daily"."cost_micros" - "excess"."cost_micros",
  "latency_ms_sum" = "usage_daily"."latency_ms_sum" - "excess"."latency_ms_sum",
  "own_key_tokens" = "usage_daily"."own_key_tokens" - "excess"."own_key_tokens"
FROM "excess"
WHERE "usage_daily"."user_id" = "excess"."user_id" AND "usage_daily"."day" = "excess"."day"
  AND "usage_daily"."environment" = "excess"."environment" AND "usage_daily"."provider" = "excess"."provider"
  AND "usage_daily"."model" = "excess"."model";--> statement-breakpoint
CREATE UNIQUE INDEX "usage_events_request_id_idx" ON "usage_events" USING btree ("request_id");
