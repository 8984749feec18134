CREATE TABLE "orphan_sweeps" (
	"id" serial PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"objects_removed" integer DEFAULT 0 NOT NULL,
	"uploads_removed" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "uploads_object_key_idx" ON "uploads" USING btree ("object_key");--> statement-breakpoint
CREATE UNIQUE INDEX "videos_cloud_path_idx" ON "videos" USING btree ("cloud_path") WHERE "videos"."cloud_path" is not null;