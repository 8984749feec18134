CREATE TABLE "recipient_keys" (
	"recipient_id" integer PRIMARY KEY NOT NULL,
	"key_id" uuid NOT NULL,
	"owner_wrap" text,
	"code_wrap" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "access_code_form" text DEFAULT 'code' NOT NULL;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "recipient_key_wrap" text;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "recipient_key_id" uuid;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "recipient_key_wrap" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "recipient_key_id" uuid;--> statement-breakpoint
ALTER TABLE "recipient_keys" ADD CONSTRAINT "recipient_keys_recipient_id_users_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The recipients page shows each recipient's card (GET /api/recipients reads recipient_keys with
-- the users row), so a card made, replaced or removed raises its owner's lists version as a
-- change to the recipient's row does (migration 0011). OLD is NULL on INSERT, NEW on DELETE.
CREATE FUNCTION "recipient_keys_raise_lists_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "raise_lists_versions"(
    (SELECT created_by_id FROM users WHERE id = OLD.recipient_id),
    (SELECT created_by_id FROM users WHERE id = NEW.recipient_id));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "recipient_keys_lists_version" AFTER INSERT OR DELETE OR UPDATE ON "recipient_keys"
  FOR EACH ROW EXECUTE FUNCTION "recipient_keys_raise_lists_version"();
