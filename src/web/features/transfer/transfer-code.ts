/**
 * The secret code of one move: 16 letters and numbers (80 bits), shown in the QR code's link
 * fragment and as text to type. The server sees only a lookup derived from it; the key that
 * seals every chunk is derived from it too, so the server can neither read nor swap the videos.
 */

// Crockford's alphabet: no I, L, O or U, so a carer cannot misread one letter for another.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const TRANSFER_CODE_LENGTH = 16;
const SALT = new TextEncoder().encode('memento-transfer-v1');

export function createTransferCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(TRANSFER_CODE_LENGTH));
  return Array.from(bytes, (byte) => ALPHABET[byte % 32]).join('');
}

/** 'ABCD-EFGH-JKMN-PQRS', as shown on the old device. */
export function formatTransferCode(code: string): string {
  return code.match(/.{1,4}/g)?.join('-') ?? code;
}

/** What the person typed, as the code: spaces and dashes dropped, look-alikes read as meant. */
export function normalizeTransferCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}

export function isTransferCode(code: string): boolean {
  return code.length === TRANSFER_CODE_LENGTH && [...code].every((c) => ALPHABET.includes(c));
}

async function derive(code: string, info: string): Promise<ArrayBuffer> {
  const base = await crypto.subtle.importKey('raw', new TextEncoder().encode(code), 'HKDF', false, [
    'deriveBits',
  ]);
  return crypto.subtle.deriveBits(
    { name: 'HKDF', hash: 'SHA-256', salt: SALT, info: new TextEncoder().encode(info) },
    base,
    256,
  );
}

/** The lookup the server stores (hashed again): finds the offer, reveals nothing of the key. */
export async function deriveLookup(code: string): Promise<string> {
  const bits = new Uint8Array(await derive(code, 'lookup'));
  return Array.from(bits, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export async function deriveTransferKey(code: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', await derive(code, 'chunk-key'), 'AES-GCM', false, [
    'encrypt',
    'decrypt',
  ]);
}
