/**
 * Colour contrast as WCAG 2 defines it (sRGB linearised, relative luminance), so a home's accent
 * colour is checked the same way by the server and by the set-up form.
 */

/** Text on the accent (buttons) is white; links in the accent sit on the page's cream. */
export const ACCENT_BACKGROUNDS = ['#ffffff', '#fbf8f3'] as const;
/** Enhanced contrast (AAA), which every Memento screen keeps. */
export const ACCENT_MIN_CONTRAST = 7;

const HEX_PATTERN = /^#[0-9a-f]{6}$/i;

export function isHexColour(value: string): boolean {
  return HEX_PATTERN.test(value);
}

function channels(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
}

function linear(channel: number): number {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

export function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map(linear) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}

/** The accent's lowest contrast against the backgrounds it is used with. */
export function accentContrast(hex: string): number {
  return Math.min(...ACCENT_BACKGROUNDS.map((background) => contrastRatio(hex, background)));
}

export function isAccentReadable(hex: string): boolean {
  return accentContrast(hex) >= ACCENT_MIN_CONTRAST;
}

function toHsl(hex: string): [number, number, number] {
  const [r, g, b] = channels(hex).map((c) => c / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h =
    max === r
      ? ((g - b) / d + (g < b ? 6 : 0)) / 6
      : max === g
        ? ((b - r) / d + 2) / 6
        : ((r - g) / d + 4) / 6;
  return [h, s, l];
}

function fromHsl(h: number, s: number, l: number): string {
  const hue = (p: number, q: number, t: number) => {
    const u = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    if (u < 1 / 6) return p + (q - p) * 6 * u;
    if (u < 1 / 2) return q;
    if (u < 2 / 3) return p + (q - p) * (2 / 3 - u) * 6;
    return p;
  };
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const rgb = s === 0 ? [l, l, l] : [hue(p, q, h + 1 / 3), hue(p, q, h), hue(p, q, h - 1 / 3)];
  return `#${rgb
    .map((c) =>
      Math.round(c * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/**
 * The nearest darker shade of the same hue that passes, for the form to offer; the colour itself
 * (lower-cased) when it already passes.
 */
export function suggestReadableAccent(hex: string): string {
  const colour = hex.toLowerCase();
  if (isAccentReadable(colour)) return colour;
  const [h, s, l] = toHsl(colour);
  for (let lightness = l; lightness > 0; lightness -= 0.005) {
    const candidate = fromHsl(h, s, lightness);
    if (isAccentReadable(candidate)) return candidate;
  }
  return '#000000';
}
