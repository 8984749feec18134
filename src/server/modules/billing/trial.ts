import type { DbOrTx } from '../../db/client';
import { findHomeOfManager } from '../care-homes/care-homes.repository';
import type { UserRow } from '../users/users.repository';

/**
 * Whether Professional's 30-day trial may start: once per account, and once per care home, so a
 * home's manager gets none once the home has had it, whichever account had it.
 */
export async function isTrialAvailable(
  db: DbOrTx,
  account: Pick<UserRow, 'id' | 'trialUsedAt'>,
): Promise<boolean> {
  if (account.trialUsedAt !== null) return false;
  const home = await findHomeOfManager(db, account.id);
  return !home?.trialUsedAt;
}
