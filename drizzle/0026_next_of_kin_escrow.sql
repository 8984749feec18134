-- The account key wrapped under the key half of the next of kin's emergency code, made in the
-- owner's browser with the next of kin's card. Withheld: handed only to that next of kin once the
-- owner's legacy is released (modules/escrow). Replaced with the card, gone with the row.
ALTER TABLE "recipient_keys" ADD COLUMN "escrow_wrap" text;
