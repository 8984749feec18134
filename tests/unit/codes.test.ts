import { describe, expect, it } from 'vitest';
import { formatCode, isWellFormedCode, normalizeCode } from '../../src/shared/domain/codes';

describe('codes as people type them', () => {
  it('ignore case, spaces and hyphens, and read 0 and 1 as the letters O and I', () => {
    expect(normalizeCode(' gq0o-1w2c ')).toBe('GQOOIW2C');
    expect(isWellFormedCode('GQ00-1WZC', 8)).toBe(true);
    expect(formatCode('gq0o1w2c')).toBe('GQOO-IW2C');
  });
});
