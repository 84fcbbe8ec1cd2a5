ALTER TABLE "usage_events" DROP CONSTRAINT "usage_events_user_id_users_id_fk";
