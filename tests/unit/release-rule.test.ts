import { describe, expect, it } from 'vitest';
import { isReleased } from '../../src/server/modules/legacy/release-rule';

const now = new Date('2030-06-01T12:00:00Z');
const notReleased = { legacyReleasedAt: null };
const released = { legacyReleasedAt: new Date('2030-05-01T00:00:00Z') };

describe('when a message opens to its recipient', () => {
  it("'now': at once, whatever the owner's legacy", () => {
    expect(isReleased({ releaseRule: 'now', releaseAt: null }, notReleased, now)).toBe(true);
  });

  it("'date': from its date on, not a moment before", () => {
    const at = (iso: string) => ({ releaseRule: 'date' as const, releaseAt: new Date(iso) });
    expect(isReleased(at('2030-06-01T12:00:01Z'), notReleased, now)).toBe(false);
    expect(isReleased(at('2030-06-01T12:00:00Z'), notReleased, now)).toBe(true);
    expect(isReleased(at('2029-01-01T00:00:00Z'), notReleased, now)).toBe(true);
  });

  it("'date' without a date never opens", () => {
    expect(isReleased({ releaseRule: 'date', releaseAt: null }, released, now)).toBe(false);
  });

  it("'legacy': once the owner's legacy is released, and not before", () => {
    const video = { releaseRule: 'legacy' as const, releaseAt: null };
    expect(isReleased(video, notReleased, now)).toBe(false);
    expect(isReleased(video, released, now)).toBe(true);
  });
});
