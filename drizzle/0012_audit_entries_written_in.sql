ALTER TABLE "audit_logs" ADD COLUMN "entry_written_in" "xid8";--> statement-breakpoint
CREATE INDEX "audit_logs_user_written_idx" ON "audit_logs" USING btree ("user_id","entry_written_in") WHERE "audit_logs"."entry_written_in" is not null;--> statement-breakpoint
CREATE INDEX "audit_logs_written_idx" ON "audit_logs" USING btree ("entry_written_in") WHERE "audit_logs"."entry_written_in" is not null;--> statement-breakpoint
-- Each entry now says which transaction wrote it (decision 044). A server keeps the audit log page
-- it sent a session with the snapshot it was read in, and sends it again while no entry of that
-- page's scope (the account's own, or everyone's for the admin) has been written by a transaction
-- the snapshot did not see: an index range from the snapshot's xmin, whatever order transactions
-- committed in, and without a lock or a counter that every audit insert would wait on. The
-- entries written before this migration stay NULL: every snapshot taken after it has seen them.
CREATE OR REPLACE FUNCTION "audit_logs_set_entry"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.entry := "audit_log_entry"(NEW);
  NEW.entry_written_in := pg_current_xact_id();
  RETURN NEW;
END
$$;
