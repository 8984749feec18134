import { ESCROW_MESSAGES } from '../../../shared/schemas/escrow';
import type { TSealedCard } from '../../../shared/schemas/encryption';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import { findRecipientKey } from '../recipients/recipient-keys.repository';
import type { SessionUser } from '../users/users.repository';

/**
 * The escrow a card brings, or null: only a next of kin's card may carry the account key, so no
 * other card becomes a second way into the account.
 */
export function escrowWrapOf(
  person: Pick<SessionUser, 'category'>,
  card: Pick<TSealedCard, 'escrowWrap'>,
): string | null {
  if (!card.escrowWrap) return null;
  if (person.category !== 'next_of_kin') {
    throw new AppError('VALIDATION', ESCROW_MESSAGES.nextOfKinCardOnly, {
      'sealedCard.escrowWrap': ESCROW_MESSAGES.nextOfKinCardOnly,
    });
  }
  return card.escrowWrap;
}

/** Whether this next of kin's card holds the account key (a legacy release would hand it over). */
export async function holdsAccountKey(db: DbOrTx, nextOfKinId: number): Promise<boolean> {
  return Boolean((await findRecipientKey(db, nextOfKinId))?.escrowWrap);
}
