import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { tierDowngrades } from '../../db/schema';

export type TierDowngradeRow = typeof tierDowngrades.$inferSelect;

export async function findLatestDowngrade(
  db: DbOrTx,
  userId: number,
): Promise<TierDowngradeRow | undefined> {
  const [row] = await db
    .select()
    .from(tierDowngrades)
    .where(eq(tierDowngrades.userId, userId))
    .orderBy(desc(tierDowngrades.downgradeDate))
    .limit(1);
  return row;
}
