CREATE TABLE "audit_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_type" text NOT NULL,
	"user_id" integer,
	"username" text,
	"timestamp" timestamp with time zone DEFAULT now() NOT NULL,
	"ip_address" text,
	"device_id" uuid,
	"successful" boolean DEFAULT true NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_resets" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" uuid NOT NULL,
	"reset_time" timestamp with time zone DEFAULT now() NOT NULL,
	"reset_method" text DEFAULT 'emergency' NOT NULL,
	"reset_by" text DEFAULT 'system' NOT NULL,
	"previous_associations" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"expiry_time" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" integer,
	"fingerprint_hash" text NOT NULL,
	"is_primary" boolean DEFAULT false NOT NULL,
	"platform" text DEFAULT 'web' NOT NULL,
	"device_name" text NOT NULL,
	"last_seen" timestamp with time zone DEFAULT now() NOT NULL,
	"last_sync_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"device_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"password_hash" text,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"is_primary" boolean DEFAULT false NOT NULL,
	"is_admin" boolean DEFAULT false NOT NULL,
	"role" text DEFAULT 'user' NOT NULL,
	"two_factor_secret" text,
	"two_factor_enabled" boolean DEFAULT false NOT NULL,
	"category" text DEFAULT 'primary' NOT NULL,
	"created_by_id" integer,
	"emergency_access_code_hash" text,
	"emergency_access_code_expiry" timestamp with time zone,
	"tos_accepted" boolean DEFAULT false NOT NULL,
	"tos_accepted_at" timestamp with time zone,
	"first_login" boolean DEFAULT true NOT NULL,
	"has_set_password" boolean DEFAULT false NOT NULL,
	"recipient_app_sync_enabled" boolean DEFAULT false NOT NULL,
	"auth_provider" text DEFAULT 'local' NOT NULL,
	"provider_user_id" text,
	"provider_access_token" text,
	"provider_refresh_token" text,
	"provider_token_expiry" timestamp with time zone,
	"subscription_status" text DEFAULT 'none' NOT NULL,
	"subscription_tier" text DEFAULT 'free' NOT NULL,
	"payment_customer_id" text,
	"payment_subscription_id" text,
	"is_vip" boolean DEFAULT false NOT NULL,
	"vip_overridden_by" integer,
	"vip_overridden_at" timestamp with time zone,
	"tier_overridden_by" integer,
	"tier_overridden_at" timestamp with time zone,
	"tier_override_reason" text,
	"onboarding_completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_logs_user_time_idx" ON "audit_logs" USING btree ("user_id","timestamp");--> statement-breakpoint
CREATE INDEX "audit_logs_failures_idx" ON "audit_logs" USING btree ("user_id","event_type","device_id","timestamp");--> statement-breakpoint
CREATE INDEX "device_resets_device_idx" ON "device_resets" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "devices_user_idx" ON "devices" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_one_primary_per_user_idx" ON "devices" USING btree ("user_id") WHERE "devices"."is_primary" and "devices"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower_idx" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_primary_email_idx" ON "users" USING btree (lower("email")) WHERE "users"."category" = 'primary';--> statement-breakpoint
CREATE INDEX "users_created_by_idx" ON "users" USING btree ("created_by_id");