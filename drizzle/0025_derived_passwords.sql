-- An account whose password is split in the browser: its password hash is of the sign-in half,
-- and these are the PBKDF2 settings the browser derives it with (null: a plain password's hash).
ALTER TABLE "users" ADD COLUMN "password_kdf" jsonb;
