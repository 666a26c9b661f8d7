/**
 * Colour contrast (WCAG 2.x relative luminance), so that every text the product draws on a colour an
 * owner picks stays readable: a button's text is chosen to contrast with its background.
 */
const HEX6 = /^#[0-9a-fA-F]{6}$/;

export function isHexColor(v: string | null | undefined): v is string {
  return typeof v === "string" && HEX6.test(v);
}

function channel(c: number): number {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

export function relativeLuminance(hex: string): number {
  const n = parseInt(hex.slice(1), 16);
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Pure black: with white, it guarantees at least 4.58:1 on any background (the crossover point). */
export const DARK_TEXT = "#000000";
export const LIGHT_TEXT = "#ffffff";

/** White or near-black, whichever reads better on the background. */
export function readableTextOn(background: string): string {
  return contrastRatio(LIGHT_TEXT, background) >= contrastRatio(DARK_TEXT, background) ? LIGHT_TEXT : DARK_TEXT;
}

/** WCAG AA for body-size text: every theme's pairs meet it, and the editor asks it of custom colours. */
export const MIN_TEXT_CONTRAST = 4.5;

/**
 * The editor's warning for a text colour on a background an owner picked, or null when the pair reads
 * well. The ratio is rounded down to one decimal, so 4.46:1 never shows as an acceptable "4.5:1".
 */
export function contrastWarning(text: string, background: string): string | null {
  if (!isHexColor(text) || !isHexColor(background)) return null;
  const ratio = contrastRatio(text, background);
  if (ratio >= MIN_TEXT_CONTRAST) return null;
  return `Contrast ${(Math.floor(ratio * 10) / 10).toFixed(1)}:1: hard to read. Aim for 4.5:1 or more.`;
}
