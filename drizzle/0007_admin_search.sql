CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "users_search_trgm_idx" ON "users" USING gin (("username" || ' ' || "email" || ' ' || "first_name" || ' ' || "last_name") gin_trgm_ops);
