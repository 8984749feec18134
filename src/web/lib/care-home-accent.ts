import type { CSSProperties } from 'react';

/**
 * A care home's accent in place of the primary colour, for the screens it brands. The server
 * refuses any accent below 7:1 against white and the page background, so text stays readable.
 */
export function careHomeAccent(accentHex: string | null | undefined): CSSProperties | undefined {
  if (!accentHex) return undefined;
  return {
    '--color-primary': accentHex,
    '--color-primary-hover': accentHex,
  } as CSSProperties;
}
