CREATE TABLE "care_team_shares" (
	"video_id" uuid PRIMARY KEY NOT NULL,
	"care_home_id" integer NOT NULL,
	"shared_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "care_team_shares" ADD CONSTRAINT "care_team_shares_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "care_team_shares" ADD CONSTRAINT "care_team_shares_care_home_id_care_homes_id_fk" FOREIGN KEY ("care_home_id") REFERENCES "public"."care_homes"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "care_team_shares_home_idx" ON "care_team_shares" USING btree ("care_home_id","shared_at");
