-- A copy sealed while it is sent (docs/decisions/078-sealing-while-sending.md) declares no SHA-256
-- when its upload starts: no one holds the whole sealed copy to hash it. Its upload row keeps no
-- checksum; the parts' checksums are checked instead and the video keeps their composite.
ALTER TABLE "uploads" ALTER COLUMN "sha256" DROP NOT NULL;
