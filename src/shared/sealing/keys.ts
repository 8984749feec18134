import { concatBytes, fromBase64Url, randomBytes, toBase64Url, utf8 } from './bytes';
import { SealingError } from './errors';

/**
 * Keys and wraps. Every key is AES-256-GCM; a wrap is the key sealed with AES-GCM under another
 * key, a fresh 96-bit IV and a label as associated data, stored as `v1.<iv>.<ciphertext>`. The
 * label names what the wrap is for (`memento/v1/wrap/content/<message>/recipient/<id>`), so a
 * server cannot hand one person's wrap to another or move a wrap to another message.
 */
export type TKeyUse = 'content' | 'wrapping';

const WRAP_VERSION = 'v1';
const IV_BYTES = 12;
const USAGES: Record<TKeyUse, KeyUsage[]> = {
  content: ['encrypt', 'decrypt'],
  wrapping: ['wrapKey', 'unwrapKey'],
};

/**
 * A new message's content key. Extractable only so that it can be wrapped for its owner and
 * recipients; whoever opens a wrap to watch gets a copy that cannot be exported.
 */
export function generateContentKey(): Promise<CryptoKey> {
  return generateKey('content', true);
}

/**
 * A key that wraps other keys: the account key, a recipient key, the next of kin's escrow key
 * (extractable, to be wrapped in turn), or a device key (not extractable, kept in IndexedDB).
 */
export function generateWrappingKey(options: { extractable: boolean }): Promise<CryptoKey> {
  return generateKey('wrapping', options.extractable);
}

async function generateKey(use: TKeyUse, extractable: boolean): Promise<CryptoKey> {
  const key = await crypto.subtle.generateKey(
    { name: 'AES-GCM', length: 256 },
    extractable,
    USAGES[use],
  );
  return key as CryptoKey;
}

/** The label a wrap is bound to: 'memento/v1/wrap/' and the parts, e.g. ('content', id, 'owner'). */
export function wrapLabel(...parts: string[]): string {
  if (parts.length === 0 || parts.some((part) => part === '' || part.includes('/'))) {
    throw new SealingError('wrap', 'A wrap label needs parts without slashes.');
  }
  return `memento/v1/wrap/${parts.join('/')}`;
}

export async function wrapKey(
  key: CryptoKey,
  wrappingKey: CryptoKey,
  label: string,
): Promise<string> {
  const iv = randomBytes(IV_BYTES);
  const sealed = await crypto.subtle.wrapKey('raw', key, wrappingKey, {
    name: 'AES-GCM',
    iv,
    additionalData: utf8(label),
  });
  return `${WRAP_VERSION}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
}

/** True for text shaped like a wrap (the server checks this much; it can check no more). */
export function isWrapShaped(text: string): boolean {
  const [version, iv, sealed, ...rest] = text.split('.');
  const ivBytes = iv === undefined ? undefined : fromBase64Url(iv);
  const sealedBytes = sealed === undefined ? undefined : fromBase64Url(sealed);
  return (
    version === WRAP_VERSION &&
    rest.length === 0 &&
    ivBytes?.length === IV_BYTES &&
    sealedBytes?.length === 32 + 16
  );
}

export async function unwrapKey(
  wrapped: string,
  wrappingKey: CryptoKey,
  label: string,
  use: TKeyUse,
  options: { extractable?: boolean } = {},
): Promise<CryptoKey> {
  if (!isWrapShaped(wrapped)) throw new SealingError('wrap', 'This key could not be read.');
  const [, iv, sealed] = wrapped.split('.') as [string, string, string];
  try {
    const key = await crypto.subtle.unwrapKey(
      'raw',
      concatBytes(fromBase64Url(sealed) ?? new Uint8Array()),
      wrappingKey,
      {
        name: 'AES-GCM',
        iv: concatBytes(fromBase64Url(iv) ?? new Uint8Array()),
        additionalData: utf8(label),
      },
      { name: 'AES-GCM', length: 256 },
      options.extractable ?? false,
      USAGES[use],
    );
    return key as CryptoKey;
  } catch {
    throw new SealingError('wrap', 'This code or key does not open this message.');
  }
}
