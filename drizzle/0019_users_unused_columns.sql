-- Columns nothing read or wrote: provider tokens were never kept, the emergency code has no
-- expiry, and recipients had no app sync setting.
ALTER TABLE "users" DROP COLUMN "emergency_access_code_expiry";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "recipient_app_sync_enabled";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "provider_user_id";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "provider_access_token";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "provider_refresh_token";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "provider_token_expiry";