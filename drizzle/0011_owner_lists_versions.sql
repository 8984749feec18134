ALTER TABLE "users" ADD COLUMN "lists_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Each owner's lists version, raised by the database whenever a list read with the request that
-- a server may keep (decision 042) would answer otherwise: GET /api/videos (a video indexed or
-- removed, its entry rewritten by the trigger of 0008, its place in the order moved) and
-- GET /api/recipients (a recipient added, removed or changed where the page shows it, their
-- video count included). A server sends a session a list it kept only while the number it was
-- read with is still the one read with the request. An owner being deleted takes their videos
-- and recipients with them; the version of a row already gone is simply not found.
-- The one write both triggers make: the owners a row belonged to before and after the change
-- (either NULL where there is none) have their lists version raised, each once.
CREATE FUNCTION "raise_lists_versions"("owner_before" integer, "owner_after" integer)
  RETURNS void LANGUAGE sql AS $$
  UPDATE users SET lists_version = lists_version + 1 WHERE id IN ("owner_before", "owner_after");
$$;--> statement-breakpoint
CREATE FUNCTION "videos_raise_lists_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
    AND OLD.creator_id = NEW.creator_id
    AND OLD.created_at = NEW.created_at
    AND OLD.index_entry IS NOT DISTINCT FROM NEW.index_entry THEN
    RETURN NULL;
  END IF;
  PERFORM "raise_lists_versions"(OLD.creator_id, NEW.creator_id);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "videos_lists_version" AFTER INSERT OR DELETE OR UPDATE ON "videos"
  FOR EACH ROW EXECUTE FUNCTION "videos_raise_lists_version"();--> statement-breakpoint
-- A recipient is a user row whose created_by_id is its owner; what the recipients page shows of
-- it is the fields compared here (RECIPIENT_WITH_COUNT_COLUMNS in recipients.repository.ts).
-- Raising an owner's own version is an update that leaves those fields, so it stops here.
CREATE FUNCTION "recipients_raise_lists_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
    AND OLD.created_by_id IS NOT DISTINCT FROM NEW.created_by_id
    AND (OLD.first_name, OLD.last_name, OLD.email, OLD.category, OLD.phone_number,
         OLD.relationship, OLD.created_at, OLD.video_count)
      IS NOT DISTINCT FROM (NEW.first_name, NEW.last_name, NEW.email, NEW.category,
         NEW.phone_number, NEW.relationship, NEW.created_at, NEW.video_count) THEN
    RETURN NULL;
  END IF;
  PERFORM "raise_lists_versions"(OLD.created_by_id, NEW.created_by_id);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "recipients_lists_version" AFTER INSERT OR DELETE OR UPDATE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "recipients_raise_lists_version"();
