-- The library's index entry (toVideoIndexEntry in videos.presenter.ts) now carries the SHA-256 of
-- the stored cloud copy, so a device that brings the copy down checks it before keeping it. The
-- same function as before with the checksum added; every entry is written again.
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
    'sha256', NEW.sha256
  )::text;
  RETURN NEW;
END
$$;--> statement-breakpoint
UPDATE "videos" SET "index_entry" = NULL;
