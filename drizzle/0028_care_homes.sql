CREATE TABLE "care_homes" (
	"id" serial PRIMARY KEY NOT NULL,
	"manager_id" integer NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"accent_hex" text,
	"logo" "bytea",
	"logo_type" text,
	"logo_updated_at" timestamp with time zone,
	"trial_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "care_home_staff" (
	"id" serial PRIMARY KEY NOT NULL,
	"care_home_id" integer NOT NULL,
	"user_id" integer,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"invite_token_hash" text,
	"invite_expires_at" timestamp with time zone,
	"invited_by_id" integer,
	"accepted_at" timestamp with time zone,
	"disabled_at" timestamp with time zone,
	"pin_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "care_home_residents" (
	"id" serial PRIMARY KEY NOT NULL,
	"care_home_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"room" text DEFAULT '' NOT NULL,
	"import_key" text NOT NULL,
	"consent_basis" text,
	"attorney_name" text,
	"consent_recorded_at" timestamp with time zone,
	"status" text DEFAULT 'active' NOT NULL,
	"status_changed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "care_homes" ADD CONSTRAINT "care_homes_manager_id_users_id_fk" FOREIGN KEY ("manager_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_home_staff" ADD CONSTRAINT "care_home_staff_care_home_id_care_homes_id_fk" FOREIGN KEY ("care_home_id") REFERENCES "public"."care_homes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_home_staff" ADD CONSTRAINT "care_home_staff_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_home_residents" ADD CONSTRAINT "care_home_residents_care_home_id_care_homes_id_fk" FOREIGN KEY ("care_home_id") REFERENCES "public"."care_homes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_home_residents" ADD CONSTRAINT "care_home_residents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_home_residents" ADD CONSTRAINT "care_home_residents_consent_basis_check" CHECK ("consent_basis" in ('resident', 'attorney', 'best_interests'));--> statement-breakpoint
ALTER TABLE "care_home_residents" ADD CONSTRAINT "care_home_residents_status_check" CHECK ("status" in ('active', 'left', 'died'));--> statement-breakpoint
CREATE UNIQUE INDEX "care_homes_manager_idx" ON "care_homes" USING btree ("manager_id");--> statement-breakpoint
CREATE UNIQUE INDEX "care_homes_slug_idx" ON "care_homes" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "care_home_staff_email_idx" ON "care_home_staff" USING btree ("care_home_id",lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "care_home_staff_token_idx" ON "care_home_staff" USING btree ("invite_token_hash") WHERE "care_home_staff"."invite_token_hash" is not null;--> statement-breakpoint
CREATE INDEX "care_home_staff_user_idx" ON "care_home_staff" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "care_home_residents_user_idx" ON "care_home_residents" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "care_home_residents_import_key_idx" ON "care_home_residents" USING btree ("care_home_id","import_key");
