ALTER TABLE "care_home_station_sessions" ADD COLUMN "sealed_unlocked_user_id" integer;
--> statement-breakpoint
ALTER TABLE "care_home_station_sessions" ADD CONSTRAINT "care_home_station_sessions_sealed_unlocked_user_id_users_id_fk" FOREIGN KEY ("sealed_unlocked_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
