CREATE TABLE "videos" (
	"id" uuid PRIMARY KEY NOT NULL,
	"creator_id" integer NOT NULL,
	"recipient_id" integer NOT NULL,
	"prompt_id" text,
	"title" text,
	"device_id" uuid,
	"storage_type" text DEFAULT 'local' NOT NULL,
	"sync_status" text DEFAULT 'local_only' NOT NULL,
	"video_url" text,
	"cloud_path" text,
	"byte_size" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"mime_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_synced_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_recipient_id_users_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "videos_creator_idx" ON "videos" USING btree ("creator_id","created_at");--> statement-breakpoint
CREATE INDEX "videos_recipient_idx" ON "videos" USING btree ("recipient_id");