CREATE TABLE "device_transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" integer NOT NULL,
	"sender_device_id" uuid NOT NULL,
	"sender_token_hash" text NOT NULL,
	"lookup_hash" text NOT NULL,
	"receiver_device_id" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"attempt" integer DEFAULT 0 NOT NULL,
	"offer_description" text,
	"answer_description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_transfers" ADD CONSTRAINT "device_transfers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "device_transfers_sender_token_idx" ON "device_transfers" USING btree ("sender_token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "device_transfers_lookup_idx" ON "device_transfers" USING btree ("lookup_hash");--> statement-breakpoint
CREATE INDEX "device_transfers_user_idx" ON "device_transfers" USING btree ("user_id","created_at");