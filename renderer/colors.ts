/**
 * Colour arithmetic for owner-chosen colours: an owner may pick any button or page colour, and the
 * text on it must still be readable (WCAG AA, 4.5:1), so the text colour is chosen, not assumed.
 */
export const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

export function isHexColor(v: string | null | undefined): v is string {
  return !!v && HEX_COLOR.test(v);
}

function channel(c: number): number {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance of #rrggbb. */
export function luminance(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16);
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const DARK = "#111827";
const LIGHT = "#ffffff";

/**
 * The first candidate readable on the background (4.5:1, or 3:1 for large text), else whichever of
 * near-black and white reads better.
 */
export function readableOn(background: string, candidates: readonly string[] = [], min = 4.5): string {
  for (const c of candidates) if (isHexColor(c) && contrast(c, background) >= min) return c;
  return contrast(DARK, background) >= contrast(LIGHT, background) ? DARK : LIGHT;
}

/** A softer text colour for secondary text that still reads at 4.5:1 on the background. */
export function mutedOn(background: string, preferred: readonly string[] = []): string {
  const lightBackground = luminance(background) > 0.18;
  return readableOn(background, [...preferred, ...(lightBackground ? ["#4b5563", "#374151"] : ["#d1d5db", "#e5e7eb"])]);
}
