CREATE TABLE "message_watches" (
	"id" serial PRIMARY KEY NOT NULL,
	"video_id" uuid NOT NULL,
	"recipient_id" integer NOT NULL,
	"first_watched_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "legacy_releases" ADD COLUMN "ended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "legacy_requests_stopped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "message_watches" ADD CONSTRAINT "message_watches_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_watches" ADD CONSTRAINT "message_watches_recipient_id_users_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "message_watches_video_recipient_idx" ON "message_watches" USING btree ("video_id","recipient_id");--> statement-breakpoint
CREATE INDEX "legacy_releases_requester_idx" ON "legacy_releases" USING btree ("requested_by_id","owner_id");