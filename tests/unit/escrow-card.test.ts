import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { WRAP_LABEL_PARTS, ZSealedCard } from '@shared/schemas/encryption';
import { generateWrappingKey, unwrapKey, wrapLabel } from '@shared/sealing';
import { makeSealedCard, splitCode } from '@web/lib/encryption/cards';
import { CARD_TEXT, cardProblemOf } from '@web/lib/encryption/owner-cards';

// The next of kin's card as the owner's browser makes it: it carries the account key under the
// code's key half, which only the code opens; the Recipients page names a next of kin whose card
// cannot carry it.

const EMAIL = 'Susan.Hughes@example.test';
const OWNER_ID = 42;

const raw = async (key: CryptoKey) =>
  Buffer.from(await crypto.subtle.exportKey('raw', key)).toString('hex');

describe('the next of kin’s card', () => {
  it('carries the account key, opened by the code alone and only for this account and card', async () => {
    const accountKey = await generateWrappingKey({ extractable: true });
    const made = await makeSealedCard({
      email: EMAIL,
      accountKey,
      escrow: { ownerId: OWNER_ID, accountKey },
    });
    expect(ZSealedCard.safeParse(made.card).success).toBe(true);
    const escrowWrap = made.card.escrowWrap!;
    const { keyHalf } = await splitCode(EMAIL, made.code);
    const label = (ownerId: number, keyId: string) =>
      wrapLabel(...WRAP_LABEL_PARTS.accountByNextOfKin(ownerId, keyId));
    const opened = await unwrapKey(
      escrowWrap,
      keyHalf,
      label(OWNER_ID, made.card.keyId),
      'wrapping',
      {
        extractable: true,
      },
    );
    expect(await raw(opened)).toBe(await raw(accountKey));
    // Moved to another account or card, or opened with another code: nothing.
    await expect(
      unwrapKey(escrowWrap, keyHalf, label(OWNER_ID + 1, made.card.keyId), 'wrapping'),
    ).rejects.toThrow();
    const other = await makeSealedCard({ email: EMAIL, accountKey });
    const { keyHalf: otherHalf } = await splitCode(EMAIL, other.code);
    await expect(
      unwrapKey(escrowWrap, otherHalf, label(OWNER_ID, made.card.keyId), 'wrapping'),
    ).rejects.toThrow();
    // Anyone else's card carries none.
    expect(other.card.escrowWrap).toBeUndefined();
  });

  it('says which cards need making again, and why', () => {
    const sealedKey = { keyId: 'k', ownerWrap: 'w' };
    expect(cardProblemOf({ category: 'family', sealedKey: null })).toBe(CARD_TEXT.needsNewCardWhy);
    expect(cardProblemOf({ category: 'next_of_kin', sealedKey: null })).toBe(
      CARD_TEXT.nextOfKinNeedsNewCardWhy,
    );
    expect(
      cardProblemOf({ category: 'next_of_kin', sealedKey: { ...sealedKey, hasEscrow: false } }),
    ).toBe(CARD_TEXT.noEscrowWhy);
    expect(
      cardProblemOf({ category: 'next_of_kin', sealedKey: { ...sealedKey, hasEscrow: true } }),
    ).toBeNull();
    expect(cardProblemOf({ category: 'family', sealedKey })).toBeNull();
  });
});
