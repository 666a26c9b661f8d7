/**
 * Inline SVG icons of the public page, drawn with currentColor so every theme colours them.
 * Brand marks: their path data is in brand-icons.ts, handed in by the caller.
 * Interface icons: path data of Lucide 1.75 (lucide.dev, ISC), shapes rewritten as single paths.
 */
import type { PlatformId } from "#core/platforms.ts";
import { escapeXml } from "../escape.ts";

/** Stroked interface icons (24 x 24, stroke width 2). */
export const UI_ICONS = {
  qr: "M4 3h3a1 1 0 0 1 1 1v3a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1zM17 3h3a1 1 0 0 1 1 1v3a1 1 0 0 1-1 1h-3a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1zM4 16h3a1 1 0 0 1 1 1v3a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1v-3a1 1 0 0 1 1-1zM21 16h-3a2 2 0 0 0-2 2v3M21 21v.01M12 7v3a2 2 0 0 1-2 2H7M3 12h.01M12 3h.01M12 16v.01M16 12h1M21 12v.01M12 21v-1",
  download: "M12 15V3M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4M7 10l5 5 5-5",
  contact: "M16 2v2M17.915 21a6 6 0 1 0-12 0M8 2v2M8 11a4 4 0 1 0 8 0 4 4 0 1 0-8 0M5 3h14a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z",
  heart: "M2 9.5a5.5 5.5 0 0 1 9.591-3.676.56.56 0 0 0 .818 0A5.49 5.49 0 0 1 22 9.5c0 2.29-1.5 4-3 5.5l-5.492 5.313a2 2 0 0 1-3 .019L5 15c-1.5-1.5-3-3.2-3-5.5",
  music: "M21 16V3a1 1 0 0 0-1.28-.96l-10 2.917a1 1 0 0 0-.72.96V19M15 16a3 3 0 1 0 6 0 3 3 0 1 0-6 0M3 19a3 3 0 1 0 6 0 3 3 0 1 0-6 0",
  close: "M18 6 6 18M6 6l12 12",
  play: "M6 4.5v15a1 1 0 0 0 1.5.86l12.5-7.5a1 1 0 0 0 0-1.72L7.5 3.64A1 1 0 0 0 6 4.5z",
  mail: "m22 7-8.991 5.727a2 2 0 0 1-2.009 0L2 7M4 4h16a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z",
  phone:
    "M13.832 16.568a1 1 0 0 0 1.213-.303l.355-.465A2 2 0 0 1 17 15h3a2 2 0 0 1 2 2v3a2 2 0 0 1-2 2A18 18 0 0 1 2 4a2 2 0 0 1 2-2h3a2 2 0 0 1 2 2v3a2 2 0 0 1-.8 1.6l-.468.351a1 1 0 0 0-.292 1.233 14 14 0 0 0 6.392 6.384",
  message: "M7.9 20A9 9 0 1 0 4 16.1L2 22z",
} as const;
export type UiIcon = keyof typeof UI_ICONS;

// The path data is constant and long: its markup is built once per icon and handed to React as
// is, instead of React escaping the same kilobyte of path data for every page it renders.
const pathMarkup = new Map<string, string>();
function cachedPath(key: string, make: () => string): { __html: string } {
  let html = pathMarkup.get(key);
  if (html === undefined) {
    html = make();
    pathMarkup.set(key, html);
  }
  return { __html: html };
}

/** A brand mark; without its path data (the preview still loading it) an empty mark of the same size. */
export function BrandIcon({ platform, path: d }: { platform: PlatformId; path: string | undefined }) {
  if (d === undefined) return <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false" />;
  // The hand-drawn mark cuts its letters out of the square; Simple Icons' paths use nonzero.
  const path = cachedPath(`b:${platform}`, () => `<path fill="currentColor"${platform === "linkedin" ? ' fill-rule="evenodd"' : ""} d="${escapeXml(d)}"></path>`);
  return <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false" dangerouslySetInnerHTML={path} />;
}

export function Icon({ name, size = 20 }: { name: UiIcon; size?: number }) {
  const path = cachedPath(
    `u:${name}`,
    () => `<path fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" d="${escapeXml(UI_ICONS[name])}"></path>`,
  );
  return <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false" dangerouslySetInnerHTML={path} />;
}
