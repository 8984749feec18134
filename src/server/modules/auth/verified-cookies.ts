import { sha256 } from '../../lib/crypto';

/** A session cookie whose signature held: the session token it carries, and that token's hash. */
export interface VerifiedCookie {
  token: string;
  idHash: string;
}

/**
 * Session cookies whose signature this server has already checked, each with its token and the
 * token's hash. Checking a signature (an HMAC) and hashing the token were about a
 * twelfth of the CPU of a signed-in read on PGlite. A cookie is found here only by its whole value,
 * signature included, so a forged one is never found: it is checked, refused, and not kept. Whether
 * the session is live is still asked of the database on every request, so sign-out and every other
 * revocation act at once. Only cookies this server signed are kept, at most `limit` of them, the
 * one kept longest ago dropped first.
 */
export class VerifiedCookies {
  private readonly known = new Map<string, VerifiedCookie>();

  constructor(
    private readonly limit: number,
    private readonly unsign: (cookie: string) => { valid: boolean; value: string | null },
  ) {}

  /** The cookie's token and hash, or null when its signature does not hold. */
  verify(cookie: string): VerifiedCookie | null {
    const known = this.known.get(cookie);
    if (known) return known;
    const unsigned = this.unsign(cookie);
    if (!unsigned.valid || !unsigned.value) return null;
    const verified = { token: unsigned.value, idHash: sha256(unsigned.value) };
    if (this.known.size >= this.limit) this.known.delete(this.known.keys().next().value!);
    this.known.set(cookie, verified);
    return verified;
  }
}
