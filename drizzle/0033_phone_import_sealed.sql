-- Import from a phone with enhanced encryption on (docs/decisions/086-phone-import-sealed.md). A
-- pairing made then carries its pairing key wrapped under the account key; a phone's sealed copy
-- carries its content key wrapped under that pairing key until the owner's device wraps it again
-- for the owner and the recipient, and the index says the message waits for that.
ALTER TABLE "mobile_pairings" ADD COLUMN "key_id" uuid;--> statement-breakpoint
ALTER TABLE "mobile_pairings" ADD COLUMN "key_wrap" text;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "pairing_key_wrap" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "pairing_key_wrap" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "pairing_id" uuid;--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_pairing_id_mobile_pairings_id_fk" FOREIGN KEY ("pairing_id") REFERENCES "public"."mobile_pairings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "videos_waiting_seal_idx" ON "videos" USING btree ("creator_id") WHERE "videos"."pairing_key_wrap" is not null;--> statement-breakpoint
-- The same function as migration 0023's, with whether the copy waits for the owner's device.
CREATE OR REPLACE FUNCTION "videos_set_index_entry"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.index_entry := json_build_object(
    'id', NEW.id,
    'recipientId', NEW.recipient_id,
    'title', CASE WHEN NEW.sync_status IN ('synced', 'pending_sync') THEN NEW.title END,
    'deviceId', NEW.device_id,
    'storageType', NEW.storage_type,
    'syncStatus', NEW.sync_status,
    'metadata', json_build_object(
      'byteSize', NEW.byte_size, 'durationMs', NEW.duration_ms, 'mimeType', NEW.mime_type),
    'createdAt', to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'release', json_build_object(
      'rule', NEW.release_rule,
      'at', to_char(NEW.release_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
    'sha256', NEW.sha256,
    'isWaitingToBeSealed', NEW.pairing_key_wrap IS NOT NULL
  )::text;
  RETURN NEW;
END
$$;--> statement-breakpoint
UPDATE "videos" SET "index_entry" = NULL;
