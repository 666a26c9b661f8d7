/**
 * Colour contrast (WCAG 2.x relative luminance), so that every text the product draws on a colour an
 * owner picks stays readable: the page chooses its text colour, it does not assume the theme's. The
 * renderer draws with `drawnColorsOf` and the Theme screen warns with `contrastWarningsOf`, the same
 * function over the same colours (ADR 146).
 */
import type { Theme } from "./themes.ts";

const HEX6 = /^#[0-9a-fA-F]{6}$/;

export function isHexColor(v: string | null | undefined): v is string {
  return typeof v === "string" && HEX6.test(v);
}

function channel(c: number): number {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance of #rrggbb. */
export function relativeLuminance(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16);
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The page's fallback text colours: near-black and white. */
export const DARK_TEXT = "#111827";
export const LIGHT_TEXT = "#ffffff";

/** WCAG AA for body-size text: every theme's pairs meet it, and the page's text is held to it. */
export const MIN_TEXT_CONTRAST = 4.5;
/** WCAG AA for large text: button labels are 19px bold. */
export const MIN_LARGE_TEXT_CONTRAST = 3;

/**
 * The first candidate readable on the background (4.5:1, or 3:1 for large text), else whichever of
 * near-black and white reads better.
 */
export function readableOn(background: string, candidates: readonly string[] = [], min = MIN_TEXT_CONTRAST): string {
  for (const c of candidates) if (isHexColor(c) && contrastRatio(c, background) >= min) return c;
  return contrastRatio(DARK_TEXT, background) >= contrastRatio(LIGHT_TEXT, background) ? DARK_TEXT : LIGHT_TEXT;
}

/** A softer text colour for secondary text that still reads at 4.5:1 on the background. */
export function mutedOn(background: string, preferred: readonly string[] = []): string {
  const lightBackground = relativeLuminance(background) > 0.18;
  return readableOn(background, [...preferred, ...(lightBackground ? ["#4b5563", "#374151"] : ["#d1d5db", "#e5e7eb"])]);
}

/** An owner's colours: #rrggbb, or null for the theme's own. */
export interface CustomColors {
  pageBackground: string | null;
  buttonBackground: string | null;
  buttonBorder: string | null;
}

/** The colours the page draws (background may be a theme's gradient; `base` is its flat colour). */
export interface DrawnColors {
  background: string;
  base: string;
  text: string;
  muted: string;
  buttonBackground: string;
  buttonText: string;
  buttonBorder: string;
}

/** What the public page draws for a theme and an owner's colours: its text and button labels chosen to read on them. */
export function drawnColorsOf(t: Theme, custom: CustomColors): DrawnColors {
  const page = isHexColor(custom.pageBackground) ? custom.pageBackground : null;
  const button = isHexColor(custom.buttonBackground) ? custom.buttonBackground : null;
  const buttonBackground = button ?? t.buttonBackground;
  return {
    background: page ?? t.background,
    base: page ?? t.backgroundBase,
    text: page ? readableOn(page, [t.text]) : t.text,
    muted: page ? mutedOn(page, [t.mutedText]) : t.mutedText,
    buttonBackground,
    // Button labels are large text (19px bold), which WCAG AA reads at 3:1; the theme's own label
    // colour is kept whenever it reaches that on the owner's button colour.
    buttonText: readableOn(buttonBackground, [t.buttonText], MIN_LARGE_TEXT_CONTRAST),
    buttonBorder: (isHexColor(custom.buttonBorder) ? custom.buttonBorder : null) ?? (button ? buttonBackground : t.buttonBorder),
  };
}

/**
 * The editor's warning for a text colour on a background, or null when the pair reads at `min`. The
 * ratio is rounded down to one decimal, so 4.46:1 never shows as an acceptable "4.5:1".
 */
export function contrastWarning(text: string, background: string, min = MIN_TEXT_CONTRAST): string | null {
  if (!isHexColor(text) || !isHexColor(background)) return null;
  const ratio = contrastRatio(text, background);
  if (ratio >= min) return null;
  return `Contrast ${(Math.floor(ratio * 10) / 10).toFixed(1)}:1: hard to read. Aim for ${min}:1 or more.`;
}

/**
 * The Theme screen's warnings for an owner's page and button colours, judged on what the page will
 * draw on them (drawnColorsOf): its text on a custom page background, its labels on a custom button.
 */
export function contrastWarningsOf(t: Theme, custom: CustomColors): { pageBackground: string | null; buttonBackground: string | null } {
  const drawn = drawnColorsOf(t, custom);
  return {
    pageBackground: isHexColor(custom.pageBackground) ? contrastWarning(drawn.text, drawn.base) ?? contrastWarning(drawn.muted, drawn.base) : null,
    buttonBackground: isHexColor(custom.buttonBackground) ? contrastWarning(drawn.buttonText, drawn.buttonBackground, MIN_LARGE_TEXT_CONTRAST) : null,
  };
}
