CREATE TABLE "key_recoveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"next_of_kin_id" integer,
	"status" text NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"opens_at" timestamp with time zone NOT NULL,
	"cancel_token_hash" text NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "key_recoveries" ADD CONSTRAINT "key_recoveries_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_recoveries" ADD CONSTRAINT "key_recoveries_next_of_kin_id_users_id_fk" FOREIGN KEY ("next_of_kin_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_recoveries" ADD CONSTRAINT "key_recoveries_status_check" CHECK ("status" in ('waiting', 'cancelled', 'closed'));--> statement-breakpoint
CREATE UNIQUE INDEX "key_recoveries_waiting_idx" ON "key_recoveries" USING btree ("owner_id") WHERE "key_recoveries"."status" = 'waiting';--> statement-breakpoint
CREATE UNIQUE INDEX "key_recoveries_token_idx" ON "key_recoveries" USING btree ("cancel_token_hash");
