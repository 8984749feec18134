ALTER TABLE "users" ADD COLUMN "access_code_expires_at" timestamp with time zone;
