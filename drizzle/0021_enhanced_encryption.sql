CREATE TABLE "account_keys" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"password_wrap" text NOT NULL,
	"password_kdf" jsonb NOT NULL,
	"recovery_wrap" text NOT NULL,
	"recovery_kdf" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "sealed_key_wrap" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "sealed_key_wrap" text;--> statement-breakpoint
ALTER TABLE "account_keys" ADD CONSTRAINT "account_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;