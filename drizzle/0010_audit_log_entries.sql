ALTER TABLE "audit_logs" ADD COLUMN "summary" text;--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "actor" text;--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "entry" text;--> statement-breakpoint
CREATE INDEX "audit_logs_unworded_idx" ON "audit_logs" USING btree ("id") WHERE "audit_logs"."entry" is null;--> statement-breakpoint
-- The row as the audit log shows it (TAuditLogEntry in safety-net.ts), kept by the database on
-- every insert and update so that GET /api/audit-logs joins texts (decision 041). The details'
-- words and who did it need JavaScript (a browser's name comes from its user agent), so they are
-- written with the row (`summary`, `actor`: insertAuditRow). The time reads as JavaScript's
-- toISOString() writes it. Rows from before this migration are worded by the server after it
-- starts (wordEarlierAuditEntries), newest first; until then they have no entry.
CREATE FUNCTION "audit_logs_set_entry"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.entry := json_build_object(
    'id', NEW.id,
    'eventType', NEW.event_type,
    'userId', NEW.user_id,
    'username', NEW.username,
    'timestamp', to_char(NEW.timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'ipAddress', NEW.ip_address,
    'successful', NEW.successful,
    'details', NEW.summary,
    'actor', NEW.actor
  )::text;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "audit_logs_entry" BEFORE INSERT OR UPDATE ON "audit_logs"
  FOR EACH ROW EXECUTE FUNCTION "audit_logs_set_entry"();
