ALTER TABLE "audit_logs" ADD COLUMN "summary" text;--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "actor" text;--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "entry" text;--> statement-breakpoint
CREATE INDEX "audit_logs_unworded_idx" ON "audit_logs" USING btree ("id") WHERE "audit_logs"."entry" is null;--> statement-breakpoint
-- The row as the audit log shows it (TAuditLogEntry in safety-net.ts), as JSON text: kept in
-- `entry` by the database on every insert and update so that GET /api/audit-logs joins texts
-- (decision 041). The details' words and who did it need JavaScript (a browser's name comes from
-- its user agent), so they are written with the row (`summary`, `actor`: insertAuditRow). The
-- time reads as JavaScript's toISOString() writes it. Rows from before this migration are worded
-- by the server after it starts (wordEarlierAuditEntries), newest first; until then they have no
-- entry, and the route reads this function's answer for them, without words.
CREATE FUNCTION "audit_log_entry"("event" "audit_logs") RETURNS text LANGUAGE sql STABLE AS $$
  SELECT json_build_object(
    'id', "event".id,
    'eventType', "event".event_type,
    'userId', "event".user_id,
    'username', "event".username,
    'timestamp', to_char("event".timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'ipAddress', "event".ip_address,
    'successful', "event".successful,
    'details', "event".summary,
    'actor', "event".actor
  )::text
$$;--> statement-breakpoint
CREATE FUNCTION "audit_logs_set_entry"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.entry := "audit_log_entry"(NEW);
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "audit_logs_entry" BEFORE INSERT OR UPDATE ON "audit_logs"
  FOR EACH ROW EXECUTE FUNCTION "audit_logs_set_entry"();
