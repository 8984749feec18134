ALTER TABLE "users" ADD COLUMN "video_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Each recipient's number of indexed videos, kept by the database on every insert, delete and
-- change of recipient of a video row (decision 040): the recipients page reads it, counting no
-- rows. A recipient being deleted takes its videos with it; the count of a row already gone is
-- simply not found.
CREATE FUNCTION "videos_count_for_recipient"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.recipient_id IS NOT DISTINCT FROM NEW.recipient_id THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE users SET video_count = video_count - 1 WHERE id = OLD.recipient_id;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    UPDATE users SET video_count = video_count + 1 WHERE id = NEW.recipient_id;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "videos_recipient_count" AFTER INSERT OR DELETE OR UPDATE OF "recipient_id"
  ON "videos" FOR EACH ROW EXECUTE FUNCTION "videos_count_for_recipient"();--> statement-breakpoint
UPDATE "users" SET "video_count" = counted.n
  FROM (SELECT "recipient_id", count(*)::int AS n FROM "videos" GROUP BY "recipient_id") AS counted
  WHERE "users"."id" = counted."recipient_id";
