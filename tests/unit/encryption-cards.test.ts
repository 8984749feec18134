import 'fake-indexeddb/auto';
import { beforeAll, describe, expect, it } from 'vitest';
import { CODE_ALPHABET, formatCode, normalizeCode } from '@shared/domain/codes';
import { WRAP_LABEL_PARTS, ZSealedCard } from '@shared/schemas/encryption';
import {
  generateContentKey,
  generateWrappingKey,
  unwrapKey,
  wrapKey,
  wrapLabel,
} from '@shared/sealing';
import { saveDeviceId } from '@web/lib/device-id';
import {
  makeCardCode,
  makeSealedCard,
  openRecipientKeyAsOwner,
  splitCode,
  wrapContentForRecipient,
} from '@web/lib/encryption/cards';
import { proveCode } from '@web/lib/encryption/code-sign-in';
import { forgetAccountKeys, getRecipientKey } from '@web/lib/encryption/device-keys';
import { readCardLink } from '@web/pages/auth/auth-views';

const EMAIL = 'Susan.Hughes@example.test';
const VIDEO_ID = '3f1c2b9a-6d4e-4f80-9a1b-2c3d4e5f6071';
const DEVICE_ID = '0b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8';

/** Whether a content key opened by someone is the one that was sealed: it decrypts its bytes. */
async function opensSameBytes(original: CryptoKey, opened: CryptoKey): Promise<boolean> {
  const iv = new Uint8Array(12);
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, original, iv);
  return crypto.subtle.decrypt({ name: 'AES-GCM', iv }, opened, sealed).then(
    () => true,
    () => false,
  );
}

let accountKey: CryptoKey;

beforeAll(async () => {
  saveDeviceId(DEVICE_ID);
  accountKey = await generateWrappingKey({ extractable: false });
});

describe('a card’s code', () => {
  it('has 16 characters of the code alphabet, each one used', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const code = makeCardCode();
      expect(code).toMatch(/^[A-Z2-9]{16}$/);
      for (const char of code) {
        expect(CODE_ALPHABET).toContain(char);
        seen.add(char);
      }
    }
    // 3,200 draws from 34 characters: a character never drawn would be a bias.
    expect(seen.size).toBe(CODE_ALPHABET.length);
  });

  it('is new each time', () => {
    const codes = new Set(Array.from({ length: 50 }, makeCardCode));
    expect(codes.size).toBe(50);
  });
});

describe('a card made in the owner’s browser', () => {
  it('has the shape the server checks, and a code shown in groups of four', async () => {
    const { code, card } = await makeSealedCard({ email: EMAIL, accountKey });
    expect(code).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    expect(ZSealedCard.safeParse(card).success).toBe(true);
    // The server gets the proof, never the code.
    expect(JSON.stringify(card)).not.toContain(normalizeCode(code));
    expect(JSON.stringify(card)).not.toContain(code);
  });

  it('proves the code the recipient types, however they type it, and only that code', async () => {
    const { code, card } = await makeSealedCard({ email: EMAIL, accountKey });
    const typed = await proveCode(EMAIL.toLowerCase(), ` ${code.toLowerCase().replace(/-/g, ' ')}`);
    expect(typed.codeProof).toBe(card.codeProof);
    const other = await proveCode(EMAIL, formatCode(makeCardCode()));
    expect(other.codeProof).not.toBe(card.codeProof);
    const otherEmail = await proveCode('someone@example.test', code);
    expect(otherEmail.codeProof).not.toBe(card.codeProof);
  });

  it('gives owner and recipient the same key: what one wraps, the other opens', async () => {
    const { code, card } = await makeSealedCard({ email: EMAIL, accountKey });
    const asOwner = await openRecipientKeyAsOwner(
      { keyId: card.keyId, ownerWrap: card.ownerWrap },
      accountKey,
    );
    const contentKey = await generateContentKey();
    const ownerKeyWrap = await wrapKey(
      contentKey,
      accountKey,
      wrapLabel(...WRAP_LABEL_PARTS.contentForOwner(VIDEO_ID)),
    );
    const forRecipient = await wrapContentForRecipient({
      videoId: VIDEO_ID,
      ownerKeyWrap,
      accountKey,
      keyId: card.keyId,
      recipientKey: asOwner,
    });

    const { keyHalf } = await splitCode(EMAIL, code);
    const asRecipient = await unwrapKey(
      card.codeWrap,
      keyHalf,
      wrapLabel(...WRAP_LABEL_PARTS.recipientByCode(card.keyId)),
      'wrapping',
    );
    const opened = await unwrapKey(
      forRecipient,
      asRecipient,
      wrapLabel(...WRAP_LABEL_PARTS.contentForRecipient(VIDEO_ID, card.keyId)),
      'content',
    );
    expect(await opensSameBytes(contentKey, opened)).toBe(true);
    // A wrap for this card moved to another message opens nothing.
    await expect(
      unwrapKey(
        forRecipient,
        asRecipient,
        wrapLabel(...WRAP_LABEL_PARTS.contentForRecipient(crypto.randomUUID(), card.keyId)),
        'content',
      ),
    ).rejects.toThrow();
  });

  it('does not open with another code or for another owner', async () => {
    const { card } = await makeSealedCard({ email: EMAIL, accountKey });
    const { keyHalf } = await splitCode(EMAIL, makeCardCode());
    await expect(
      unwrapKey(
        card.codeWrap,
        keyHalf,
        wrapLabel(...WRAP_LABEL_PARTS.recipientByCode(card.keyId)),
        'wrapping',
      ),
    ).rejects.toThrow();
    const otherAccount = await generateWrappingKey({ extractable: false });
    await expect(
      openRecipientKeyAsOwner({ keyId: card.keyId, ownerWrap: card.ownerWrap }, otherAccount),
    ).rejects.toThrow();
  });
});

describe('the recipient’s device', () => {
  it('keeps the keys its code opens, skips others, and forgets them at sign-out', async () => {
    const mine = await makeSealedCard({ email: EMAIL, accountKey });
    const someoneElses = await makeSealedCard({ email: EMAIL, accountKey });
    const proof = await proveCode(EMAIL, mine.code);
    await proof.keepRecipientKeys([
      { keyId: mine.card.keyId, codeWrap: mine.card.codeWrap },
      { keyId: someoneElses.card.keyId, codeWrap: someoneElses.card.codeWrap },
    ]);

    const kept = await getRecipientKey(mine.card.keyId);
    expect(kept).not.toBeNull();
    expect(kept!.extractable).toBe(false);
    expect(await getRecipientKey(someoneElses.card.keyId)).toBeNull();
    const asOwner = await openRecipientKeyAsOwner(
      { keyId: mine.card.keyId, ownerWrap: mine.card.ownerWrap },
      accountKey,
    );
    const probe = await generateContentKey();
    const label = wrapLabel(...WRAP_LABEL_PARTS.contentForRecipient(VIDEO_ID, mine.card.keyId));
    const opened = await unwrapKey(await wrapKey(probe, asOwner, label), kept!, label, 'content');
    expect(await opensSameBytes(probe, opened)).toBe(true);

    await forgetAccountKeys();
    expect(await getRecipientKey(mine.card.keyId)).toBeNull();
  });
});

describe('a printed card’s link', () => {
  it('fills the recipient’s sign-in form, and only on the sign-in page', () => {
    const hash = `#${new URLSearchParams({ email: 'anna@example.test', code: 'K7QM2XPA93HTWQ4N' })}`;
    expect(readCardLink(hash, '')).toEqual({
      email: 'anna@example.test',
      code: 'K7QM2XPA93HTWQ4N',
    });
    // A password reset link carries the same fields: it stays a reset.
    expect(readCardLink(hash, '?view=reset_password')).toBeNull();
    expect(readCardLink('#email=anna%40example.test', '')).toBeNull();
    // A care home's letter carries the code alone: the family types their email.
    expect(readCardLink('#code=K7QM2XPA93HTWQ4N', '')).toEqual({
      email: '',
      code: 'K7QM2XPA93HTWQ4N',
    });
  });
});
