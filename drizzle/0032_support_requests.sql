CREATE TABLE "support_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"care_home_id" integer NOT NULL,
	"requester_id" integer,
	"requester_name" text NOT NULL,
	"requester_email" text NOT NULL,
	"is_priority" boolean NOT NULL,
	"category" text NOT NULL,
	"urgency" text NOT NULL,
	"description" text NOT NULL,
	"diagnostics" jsonb,
	"status" text DEFAULT 'received' NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"answered_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "support_requests" ADD CONSTRAINT "support_requests_care_home_id_care_homes_id_fk" FOREIGN KEY ("care_home_id") REFERENCES "public"."care_homes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_requests" ADD CONSTRAINT "support_requests_requester_id_users_id_fk" FOREIGN KEY ("requester_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_requests" ADD CONSTRAINT "support_requests_answered_by_id_users_id_fk" FOREIGN KEY ("answered_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_requests" ADD CONSTRAINT "support_requests_status_check" CHECK ("status" in ('received', 'answered'));--> statement-breakpoint
ALTER TABLE "support_requests" ADD CONSTRAINT "support_requests_urgency_check" CHECK ("urgency" in ('urgent', 'normal'));--> statement-breakpoint
CREATE INDEX "support_requests_home_idx" ON "support_requests" USING btree ("care_home_id","created_at");--> statement-breakpoint
CREATE INDEX "support_requests_open_idx" ON "support_requests" USING btree ("status","is_priority","due_at");
