/**
 * The PLUS marks of the editor (ADR 112): the Plus-only features one link or the profile's settings
 * need, whether or not they are on the page now. A link row marks itself with them; whether the page
 * would lose them under Lite, and so whether publishing is refused, is core/plan-hides.ts's answer.
 * Small on purpose: the Links screen loads it at first paint.
 */
import { PROMOTE_LINK_TYPE } from "./link-types.ts";
import type { PageLink, PageProfile } from "./model.ts";
import type { FeatureKey } from "./plans.ts";

type GatedLink = Pick<PageLink, "linkType" | "isMainButton" | "scheduleStartTime" | "scheduleEndTime" | "thumbnailUrl">;
type GatedProfile = Pick<PageProfile, "removeBranding" | "hidePlatformBranding" | "longFormText" | "longFormTextVisible" | "customFontPairingName">;

/**
 * The Plus-only features one link needs, whether or not it is switched on. The editor marks a row
 * with them; the gate counts what the page would show (ADR 136).
 */
export function linkPlusFeatures(l: GatedLink): FeatureKey[] {
  const used: FeatureKey[] = [];
  if (l.linkType === "lead_magnet") used.push("lead_magnet");
  if (l.linkType === "vcf") used.push("vcf");
  if (l.linkType === "music") used.push("music");
  if (l.linkType === PROMOTE_LINK_TYPE) used.push(PROMOTE_LINK_TYPE);
  if (l.isMainButton) used.push("main_button");
  if (l.scheduleStartTime || l.scheduleEndTime) used.push("scheduling");
  if (l.thumbnailUrl) used.push("thumbnails");
  return used;
}

/** The Plus-only features the profile's settings use. */
export function profilePlusFeatures(p: GatedProfile): FeatureKey[] {
  const used: FeatureKey[] = [];
  if (p.removeBranding || p.hidePlatformBranding) used.push("remove_branding");
  if (p.longFormTextVisible && p.longFormText.trim()) used.push("long_form_text");
  if (p.customFontPairingName) used.push("custom_fonts");
  return used;
}

