import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

/** The cheapest statement the database answers: whether it is there at all. */
export async function pingDatabase(db: DbOrTx): Promise<void> {
  await db.execute(sql`select 1`);
}
