CREATE TABLE "legacy_releases" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"requested_by_id" integer,
	"status" text NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"releases_at" timestamp with time zone NOT NULL,
	"cancel_token_hash" text NOT NULL,
	"halfway_reminder_at" timestamp with time zone,
	"last_day_reminder_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" text,
	"released_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "scheduled_jobs" (
	"name" text PRIMARY KEY NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"last_error" text,
	"runs" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "legacy_waiting_days" integer DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "inactivity_months" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "show_waiting_messages" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "legacy_released_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "inactivity_notices" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "inactivity_notice_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "release_rule" text DEFAULT 'now' NOT NULL;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "release_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "opening_announced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "legacy_releases" ADD CONSTRAINT "legacy_releases_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legacy_releases" ADD CONSTRAINT "legacy_releases_requested_by_id_users_id_fk" FOREIGN KEY ("requested_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "legacy_releases_waiting_idx" ON "legacy_releases" USING btree ("owner_id") WHERE "legacy_releases"."status" = 'waiting';--> statement-breakpoint
CREATE INDEX "legacy_releases_due_idx" ON "legacy_releases" USING btree ("releases_at") WHERE "legacy_releases"."status" = 'waiting';--> statement-breakpoint
CREATE UNIQUE INDEX "legacy_releases_token_idx" ON "legacy_releases" USING btree ("cancel_token_hash");--> statement-breakpoint
CREATE INDEX "users_inactivity_idx" ON "users" USING btree ("id") WHERE "users"."inactivity_months" is not null;--> statement-breakpoint
CREATE INDEX "videos_release_due_idx" ON "videos" USING btree ("release_at") WHERE "videos"."release_rule" = 'date' and "videos"."opening_announced_at" is null;--> statement-breakpoint
-- The library's index entry (toVideoIndexEntry in videos.presenter.ts) now says when the
-- recipient may watch; the same function as before with the release added.
CREATE OR REPLACE FUNCTION "videos_set_index_entry"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.index_entry := json_build_object(
    'id', NEW.id,
    'recipientId', NEW.recipient_id,
    'title', CASE WHEN NEW.sync_status IN ('synced', 'pending_sync') THEN NEW.title END,
    'deviceId', NEW.device_id,
    'storageType', NEW.storage_type,
    'syncStatus', NEW.sync_status,
    'metadata', json_build_object(
      'byteSize', NEW.byte_size, 'durationMs', NEW.duration_ms, 'mimeType', NEW.mime_type),
    'createdAt', to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'release', json_build_object(
      'rule', NEW.release_rule,
      'at', to_char(NEW.release_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
  )::text;
  RETURN NEW;
END
$$;--> statement-breakpoint
UPDATE "videos" SET "index_entry" = NULL;
