import { and, count, eq, gt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { failedAttempts } from '../../db/schema';

export async function insertFailedAttempt(db: DbOrTx, kind: string, key: string): Promise<void> {
  await db.insert(failedAttempts).values({ kind, key });
}

export async function countFailedAttempts(
  db: DbOrTx,
  kind: string,
  key: string,
  since: Date,
): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(failedAttempts)
    .where(
      and(eq(failedAttempts.kind, kind), eq(failedAttempts.key, key), gt(failedAttempts.at, since)),
    );
  return row?.value ?? 0;
}
