import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signs short-lived URLs (file mode's playback), as S3 presigns its own: the signature covers
 * every parameter and the expiry, with a key derived from the session secret, so the URL works
 * for a few minutes for exactly what it names and nothing else.
 */
export class UrlSigner {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('memento:signed-url:v1').digest();
  }

  sign(parts: readonly string[]): string {
    return createHmac('sha256', this.key).update(parts.join('\n')).digest('base64url');
  }

  verify(parts: readonly string[], signature: string): boolean {
    const expected = Buffer.from(this.sign(parts));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
