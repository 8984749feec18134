ALTER TABLE "care_home_staff" ADD COLUMN "pin_failures" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "care_home_staff" ADD COLUMN "pin_locked_until" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "care_home_residents" ADD COLUMN "paused_at" timestamp with time zone;
--> statement-breakpoint
CREATE TABLE "care_home_stations" (
	"device_id" uuid PRIMARY KEY NOT NULL,
	"care_home_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "care_home_station_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"care_home_id" integer NOT NULL,
	"device_id" uuid NOT NULL,
	"staff_id" integer NOT NULL,
	"resident_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "care_home_stations" ADD CONSTRAINT "care_home_stations_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "care_home_stations" ADD CONSTRAINT "care_home_stations_care_home_id_care_homes_id_fk" FOREIGN KEY ("care_home_id") REFERENCES "public"."care_homes"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "care_home_station_sessions" ADD CONSTRAINT "care_home_station_sessions_care_home_id_care_homes_id_fk" FOREIGN KEY ("care_home_id") REFERENCES "public"."care_homes"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "care_home_station_sessions" ADD CONSTRAINT "care_home_station_sessions_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "care_home_station_sessions" ADD CONSTRAINT "care_home_station_sessions_staff_id_care_home_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."care_home_staff"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "care_home_station_sessions" ADD CONSTRAINT "care_home_station_sessions_resident_user_id_users_id_fk" FOREIGN KEY ("resident_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "care_home_stations_home_idx" ON "care_home_stations" USING btree ("care_home_id");
--> statement-breakpoint
CREATE INDEX "care_home_station_sessions_device_idx" ON "care_home_station_sessions" USING btree ("device_id");
