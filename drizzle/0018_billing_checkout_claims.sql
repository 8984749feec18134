-- A Checkout page is claimed (status 'opening', keyed by its idempotency key) before Stripe is
-- called, so no transaction waits on Stripe; the session's id, URL and expiry come once it answers.
DROP INDEX "billing_checkouts_one_open_idx";--> statement-breakpoint
ALTER TABLE "billing_checkouts" DROP CONSTRAINT "billing_checkouts_pkey";--> statement-breakpoint
ALTER TABLE "billing_checkouts" ALTER COLUMN "id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_checkouts" ALTER COLUMN "url" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_checkouts" ALTER COLUMN "status" SET DEFAULT 'opening';--> statement-breakpoint
ALTER TABLE "billing_checkouts" ALTER COLUMN "expires_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_checkouts" ADD COLUMN "key" text;--> statement-breakpoint
-- Pages opened before keep their session id as their key (unique, and never a checkout- key).
UPDATE "billing_checkouts" SET "key" = "id";--> statement-breakpoint
ALTER TABLE "billing_checkouts" ALTER COLUMN "key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_checkouts" ADD PRIMARY KEY ("key");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_checkouts_one_open_idx" ON "billing_checkouts" USING btree ("user_id") WHERE "billing_checkouts"."status" in ('opening', 'open');--> statement-breakpoint
ALTER TABLE "billing_checkouts" ADD CONSTRAINT "billing_checkouts_session_idx" UNIQUE("id");
