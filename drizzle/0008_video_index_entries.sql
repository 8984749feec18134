ALTER TABLE "videos" ADD COLUMN "index_entry" text;--> statement-breakpoint
-- The row as the library's index presents it (toVideoIndexEntry in videos.presenter.ts), kept by
-- the database on every write so that GET /api/videos joins texts (decision 038). A title is
-- shown only beside a cloud copy; the time reads as JavaScript's toISOString() writes it.
CREATE FUNCTION "videos_set_index_entry"() RETURNS trigger LANGUAGE plpgsql AS $$
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
    'createdAt', to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  )::text;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "videos_index_entry" BEFORE INSERT OR UPDATE ON "videos"
  FOR EACH ROW EXECUTE FUNCTION "videos_set_index_entry"();--> statement-breakpoint
UPDATE "videos" SET "index_entry" = NULL;
