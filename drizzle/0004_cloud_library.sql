CREATE TABLE "mobile_pairings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" integer NOT NULL,
	"created_by_device_id" uuid,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"cancelled_at" timestamp with time zone,
	"uploads_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tier_downgrades" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"previous_tier" text NOT NULL,
	"new_tier" text NOT NULL,
	"downgrade_date" timestamp with time zone DEFAULT now() NOT NULL,
	"cloud_retention_days" integer DEFAULT 30 NOT NULL,
	"cloud_retention_expiry" timestamp with time zone NOT NULL,
	"data_exported" boolean DEFAULT false NOT NULL,
	"exported_at" timestamp with time zone,
	"cloud_cleanup_completed" boolean DEFAULT false NOT NULL,
	"cleaned_up_at" timestamp with time zone,
	"recipients_removed" integer DEFAULT 0 NOT NULL,
	"videos_deleted" integer DEFAULT 0 NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"video_id" uuid NOT NULL,
	"user_id" integer NOT NULL,
	"device_id" uuid,
	"pairing_id" uuid,
	"object_key" text NOT NULL,
	"store_upload_id" text,
	"byte_size" bigint NOT NULL,
	"part_size" integer NOT NULL,
	"part_count" integer NOT NULL,
	"sha256" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "videos" ALTER COLUMN "byte_size" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "sha256" text;--> statement-breakpoint
ALTER TABLE "mobile_pairings" ADD CONSTRAINT "mobile_pairings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tier_downgrades" ADD CONSTRAINT "tier_downgrades_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mobile_pairings_token_idx" ON "mobile_pairings" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "mobile_pairings_user_idx" ON "mobile_pairings" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "tier_downgrades_user_idx" ON "tier_downgrades" USING btree ("user_id","downgrade_date");--> statement-breakpoint
CREATE INDEX "tier_downgrades_due_idx" ON "tier_downgrades" USING btree ("cloud_retention_expiry") WHERE not "tier_downgrades"."cloud_cleanup_completed";--> statement-breakpoint
CREATE UNIQUE INDEX "uploads_one_active_per_video_idx" ON "uploads" USING btree ("video_id") WHERE "uploads"."status" = 'active';--> statement-breakpoint
CREATE INDEX "uploads_user_status_idx" ON "uploads" USING btree ("user_id","status");--> statement-breakpoint
CREATE INDEX "videos_recipient_synced_idx" ON "videos" USING btree ("recipient_id","created_at") WHERE "videos"."sync_status" = 'synced';