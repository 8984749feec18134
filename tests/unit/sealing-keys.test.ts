import { hkdfSync, pbkdf2Sync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  checkRecoveryCode,
  codeKdfParams,
  generateContentKey,
  generateRecoveryCode,
  generateWrappingKey,
  isWrapShaped,
  KDF_ITERATIONS,
  newKdfParams,
  openStream,
  RECOVERY_CODE_LENGTH,
  splitSecret,
  type TKdfParams,
  unwrapKey,
  wrapKey,
  wrapLabel,
} from '../../src/shared/sealing';
import { fromBase64Url } from '../../src/shared/sealing/bytes';
import { CODE_ALPHABET } from '../../src/shared/domain/codes';
import {
  expectFailure,
  expectSameBytes,
  MESSAGE_ID,
  readAll,
  recording,
  sealBytes,
  streamOfBytes,
} from './sealing-helpers';

const CODE = 'K7QM-2XPA-93HT-WQ4N';
const EMAIL = 'anna@example.test';
const forMessage = (holder: string) => wrapLabel('content', MESSAGE_ID, holder);

describe('wrapping a message’s key', () => {
  it('opens with the right key and label, and the opened key cannot be exported', async () => {
    const bytes = recording(70_000);
    const { key, sealed } = await sealBytes(bytes);
    const recipientKey = await generateWrappingKey({ extractable: true });
    const wrapped = await wrapKey(key, recipientKey, forMessage('recipient'));
    expect(isWrapShaped(wrapped)).toBe(true);
    expect(wrapped).toMatch(/^v1\.[\w-]{16}\.[\w-]{64}$/);

    const opened = await unwrapKey(wrapped, recipientKey, forMessage('recipient'), 'content');
    expect(opened.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', opened)).rejects.toThrow();
    expectSameBytes(await readAll(openStream(opened, streamOfBytes(sealed), MESSAGE_ID)), bytes);
  });

  it('refuses another key, another label (message or holder) and a changed wrap', async () => {
    const key = await generateContentKey();
    const recipientKey = await generateWrappingKey({ extractable: false });
    const wrapped = await wrapKey(key, recipientKey, forMessage('recipient'));
    const otherKey = await generateWrappingKey({ extractable: false });
    await expectFailure(unwrapKey(wrapped, otherKey, forMessage('recipient'), 'content'), 'wrap');
    await expectFailure(unwrapKey(wrapped, recipientKey, forMessage('owner'), 'content'), 'wrap');
    const elsewhere = wrapLabel('content', 'another-message', 'recipient');
    await expectFailure(unwrapKey(wrapped, recipientKey, elsewhere, 'content'), 'wrap');
    // One character of the sealed key changed (to another one, whatever it was).
    const replaced = wrapped.at(-2) === 'A' ? 'B' : 'A';
    const changed = wrapped.slice(0, -2) + replaced + wrapped.slice(-1);
    expect(changed).not.toBe(wrapped);
    await expectFailure(
      unwrapKey(changed, recipientKey, forMessage('recipient'), 'content'),
      'wrap',
    );
    await expectFailure(
      unwrapKey('v1.abc.def', recipientKey, forMessage('recipient'), 'content'),
      'wrap',
    );
    expect(() => wrapLabel('content', 'a/b')).toThrow();
  });

  it('chains: a password opens the account key, which opens a recipient key, which opens the message', async () => {
    const kdf = newKdfParams('password');
    const accountKey = await generateWrappingKey({ extractable: true });
    const recipientKey = await generateWrappingKey({ extractable: true });
    const contentKey = await generateContentKey();
    const owner = await splitSecret('password', 'correct horse battery', kdf);
    const accountWrap = await wrapKey(accountKey, owner.keyHalf, wrapLabel('account', 'password'));
    const recipientWrap = await wrapKey(recipientKey, accountKey, wrapLabel('recipient', 'r1'));
    const contentWrap = await wrapKey(contentKey, recipientKey, forMessage('r1'));

    const again = await splitSecret('password', 'correct horse battery', kdf);
    const account = await unwrapKey(
      accountWrap,
      again.keyHalf,
      wrapLabel('account', 'password'),
      'wrapping',
    );
    const recipient = await unwrapKey(
      recipientWrap,
      account,
      wrapLabel('recipient', 'r1'),
      'wrapping',
    );
    await expect(
      unwrapKey(contentWrap, recipient, forMessage('r1'), 'content'),
    ).resolves.toBeDefined();

    const wrong = await splitSecret('password', 'correct horse batterY', kdf);
    await expectFailure(
      unwrapKey(accountWrap, wrong.keyHalf, wrapLabel('account', 'password'), 'wrapping'),
      'wrap',
    );
  });
});

describe('a code split into a sign-in half and a key half', () => {
  async function halvesByNode(secret: string, kdf: TKdfParams, kind: string) {
    const salt = fromBase64Url(kdf.salt) as Uint8Array;
    const master = pbkdf2Sync(secret, salt, kdf.iterations, 32, 'sha256');
    const half = (name: string) =>
      new Uint8Array(
        hkdfSync('sha256', master, new Uint8Array(), `memento/v1/${kind}/${name}`, 32),
      );
    return { signIn: half('sign-in'), key: half('key') };
  }

  it('derives both halves as written down, and they share nothing', async () => {
    const kdf = await codeKdfParams(EMAIL);
    expect(kdf.iterations).toBe(KDF_ITERATIONS.code);
    const halves = await splitSecret('code', CODE, kdf);
    const expected = await halvesByNode('K7QM2XPA93HTWQ4N', kdf, 'code');
    expectSameBytes(fromBase64Url(halves.signInHalf) as Uint8Array, expected.signIn);

    // The key half is the one documented: a wrap made with the bytes opens with the derived key.
    const documented = await crypto.subtle.importKey('raw', expected.key, 'AES-GCM', false, [
      'wrapKey',
    ]);
    const contentKey = await generateContentKey();
    const wrapped = await wrapKey(contentKey, documented, forMessage('r1'));
    await expect(
      unwrapKey(wrapped, halves.keyHalf, forMessage('r1'), 'content'),
    ).resolves.toBeDefined();
    expect(halves.keyHalf.extractable).toBe(false);

    const differing = expected.signIn.reduce(
      (bits, byte, i) => bits + popCount(byte ^ (expected.key[i] ?? 0)),
      0,
    );
    expect(differing).toBeGreaterThan(80);
    expect(differing).toBeLessThan(176);
  });

  it('gives the server nothing to open a wrap with: keys made from the sign-in half fail', async () => {
    const halves = await splitSecret('code', CODE, await codeKdfParams(EMAIL));
    const contentKey = await generateContentKey();
    const wrapped = await wrapKey(contentKey, halves.keyHalf, forMessage('r1'));
    const signIn = fromBase64Url(halves.signInHalf) as Uint8Array<ArrayBuffer>;
    const asKey = await crypto.subtle.importKey('raw', signIn, 'AES-GCM', false, ['unwrapKey']);
    const stretched = await crypto.subtle.importKey('raw', signIn, 'HKDF', false, ['deriveKey']);
    const derived = await crypto.subtle.deriveKey(
      {
        name: 'HKDF',
        hash: 'SHA-256',
        salt: new Uint8Array(),
        info: new TextEncoder().encode('memento/v1/code/key'),
      },
      stretched,
      { name: 'AES-GCM', length: 256 },
      false,
      ['unwrapKey'],
    );
    for (const guess of [asKey, derived]) {
      await expectFailure(unwrapKey(wrapped, guess, forMessage('r1'), 'content'), 'wrap');
    }
  });

  it('reads a code as people type it, and differs per email and per kind of secret', async () => {
    const kdf = await codeKdfParams(' Anna@Example.test ');
    const typed = await splitSecret('code', 'k7qm 2xpa 93ht wq4n', kdf);
    const printed = await splitSecret('code', CODE, await codeKdfParams(EMAIL));
    expect(typed.signInHalf).toBe(printed.signInHalf);
    const otherEmail = await splitSecret('code', CODE, await codeKdfParams('ben@example.test'));
    expect(otherEmail.signInHalf).not.toBe(printed.signInHalf);
    const strongKdf = { ...kdf, iterations: KDF_ITERATIONS.recovery };
    const [asCode, asRecovery] = await Promise.all([
      splitSecret('code', CODE, strongKdf),
      splitSecret('recovery', CODE, strongKdf),
    ]);
    expect(asCode.signInHalf).not.toBe(asRecovery.signInHalf);
  });

  it('refuses settings weaker than ours, a short salt or an absurd cost', async () => {
    const codeKdf = await codeKdfParams(EMAIL);
    await expectFailure(splitSecret('password', 'a password', codeKdf), 'kdf');
    await expectFailure(splitSecret('code', CODE, { ...codeKdf, iterations: 1000 }), 'kdf');
    await expectFailure(splitSecret('code', CODE, { ...codeKdf, salt: 'c2hvcnQ' }), 'kdf');
    await expectFailure(splitSecret('code', CODE, { ...codeKdf, iterations: 10 ** 9 }), 'kdf');
    expect(newKdfParams('password')).toMatchObject({
      algorithm: 'PBKDF2-SHA-256',
      iterations: 600_000,
    });
    expect(newKdfParams('recovery').salt).not.toBe(newKdfParams('recovery').salt);
  });
});

describe('the recovery code on the printed sheet', () => {
  const codes = Array.from({ length: 40 }, () => generateRecoveryCode());

  it('is six groups of four characters from the app’s alphabet, and checks as valid', () => {
    for (const code of codes) {
      expect(code).toMatch(/^([A-Z2-9]{4}-){5}[A-Z2-9]{4}$/);
      expect(checkRecoveryCode(code)).toEqual({ isValid: true, code });
    }
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('catches every single mistyped character and names its group', () => {
    for (const code of codes.slice(0, 10)) {
      const raw = code.replace(/-/g, '');
      for (let position = 0; position < RECOVERY_CODE_LENGTH; position++) {
        for (const char of CODE_ALPHABET) {
          if (char === raw[position]) continue;
          const typo = raw.slice(0, position) + char + raw.slice(position + 1);
          expect(checkRecoveryCode(typo)).toEqual({
            isValid: false,
            problem: 'group',
            groups: [Math.floor(position / 4) + 1],
          });
        }
      }
    }
  });

  it('catches a group typed in the wrong place, a missing character and a stray symbol', () => {
    const groups = (codes[0] as string).split('-');
    const swapped = [groups[1], groups[0], ...groups.slice(2)].join('-');
    expect(checkRecoveryCode(swapped)).toMatchObject({
      isValid: false,
      problem: 'group',
      groups: [1, 2],
    });
    expect(checkRecoveryCode((codes[0] as string).slice(0, -1))).toMatchObject({
      problem: 'length',
    });
    const stray = `${(codes[0] as string).slice(0, 5)}!${(codes[0] as string).slice(6)}`;
    expect(checkRecoveryCode(stray)).toMatchObject({ problem: 'character', groups: [2] });
  });

  it('accepts it typed in lower case, without hyphens, with 0 and 1 for O and I', () => {
    const code = codes.find((candidate) => /[OI]/.test(candidate)) ?? (codes[0] as string);
    const typed = code.toLowerCase().replace(/-/g, ' ').replace(/o/g, '0').replace(/i/g, '1');
    expect(checkRecoveryCode(typed)).toEqual({ isValid: true, code });
  });

  it('opens the account key it wrapped', async () => {
    const code = codes[1] as string;
    const kdf = newKdfParams('recovery');
    const accountKey = await generateWrappingKey({ extractable: true });
    const sheet = await splitSecret('recovery', code, kdf);
    const wrapped = await wrapKey(accountKey, sheet.keyHalf, wrapLabel('account', 'recovery'));
    const typed = await splitSecret('recovery', code.toLowerCase(), kdf);
    const label = wrapLabel('account', 'recovery');
    await expect(unwrapKey(wrapped, typed.keyHalf, label, 'wrapping')).resolves.toBeDefined();
  });
});

function popCount(byte: number): number {
  let count = 0;
  for (let rest = byte; rest > 0; rest >>= 1) count += rest & 1;
  return count;
}
