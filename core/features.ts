/**
 * What the site sells (ADR 143): one row per feature as an owner would name it, the one table /pricing,
 * /features and the landing page's "Experience the Plus" slides are built from. Each row stands for the
 * plan's feature keys (core/plans.ts) behind it, so no key is sold twice under two names ("Lead magnet
 * links" and "Lead magnets", the affiliate programme and its Promote & Earn link), and a row is only
 * where the plan puts its keys. tests/e2e/site-features.spec.ts walks each row to its place in the
 * dashboard; a row the editor does not have fails it.
 */
import { LIMITS } from "./limits.ts";
import { PLAN_NAMES, type FeatureKey, type PlanType } from "./plans.ts";
import { BUTTON_STYLES, FONT_PAIRINGS, THEMES } from "./themes.ts";

/** The landing page's Plus slides a row is sold on (only Plus rows are). */
export type PlusSlide = "design" | "links" | "grow";

export interface SiteFeature {
  id: string;
  /** The plan it starts on: a Lite row is on both plans, a Plus row only on Plus (and the trial). */
  plan: PlanType;
  /** The plan's feature keys this row stands for; none for what every page has (the QR code). */
  keys: readonly FeatureKey[];
  label: string;
  /** What the label alone does not say, under it on /pricing and /features. */
  note?: string;
  slide?: PlusSlide;
}

const pct = Math.round(LIMITS.AFFILIATE_COMMISSION_RATE * 100);
const freeThemes = THEMES.filter((t) => t.free).length;

export const SITE_FEATURES = [
  {
    id: "links",
    plan: "lite",
    keys: ["standard_links"],
    label: "Links, labels, text links and donation buttons",
    note: `Up to ${LIMITS.LITE_MAX_LINKS} links on ${PLAN_NAMES.lite}, grouped into lists if you like`,
  },
  {
    id: "players",
    plan: "lite",
    keys: [],
    label: "Video and music players",
    note: "YouTube, Vimeo, Spotify, SoundCloud, Apple Music, Bandcamp and TikTok links play on your page; nothing loads from them until a visitor presses play",
  },
  { id: "social-buttons", plan: "lite", keys: [], label: "Social buttons", note: "A full-width button to one of your profiles, with its brand mark" },
  { id: "social-icons", plan: "lite", keys: ["social_links_basic"], label: "Social icons", note: `Up to ${LIMITS.LITE_MAX_VISIBLE_SOCIAL} visible on ${PLAN_NAMES.lite}` },
  { id: "profile", plan: "lite", keys: ["profile_picture", "bio"], label: "Profile picture or initials, name and bio" },
  {
    id: "design",
    plan: "lite",
    keys: ["basic_themes"],
    label: `${freeThemes} free themes, ${BUTTON_STYLES.length} button styles and your own colours`,
  },
  { id: "qr-code", plan: "lite", keys: [], label: "A QR code for your page", note: "Ready for print, posters and business cards" },
  { id: "analytics", plan: "lite", keys: ["basic_analytics"], label: "Analytics overview", note: "Page views, visitors and link clicks, day by day" },

  { id: "unlimited", plan: "plus", keys: ["unlimited_links", "unlimited_social_links"], label: "Unlimited links and social icons", slide: "links" },
  {
    id: "lead-magnets",
    plan: "plus",
    keys: ["lead_magnet", "lead_magnets", "lead_viewing"],
    label: "Lead magnets",
    note: "A free download for an email address; every lead listed in your dashboard, exported to CSV, and deleted on request",
    slide: "links",
  },
  {
    id: "music",
    plan: "plus",
    keys: ["music"],
    label: "Music releases",
    note: "One card with your cover and a button per streaming service, in your order",
    slide: "links",
  },
  { id: "contact-cards", plan: "plus", keys: ["vcf"], label: "Contact cards (vCard)", note: "Visitors save your details to their contacts in one tap", slide: "links" },
  { id: "scheduling", plan: "plus", keys: ["scheduling"], label: "Link scheduling", note: "Links appear and disappear on time, on their own", slide: "links" },
  { id: "thumbnails", plan: "plus", keys: ["thumbnails"], label: "Link thumbnails", slide: "links" },
  { id: "long-form-text", plan: "plus", keys: ["long_form_text"], label: "Long-form text", note: "An about section below your links", slide: "links" },
  { id: "premium-themes", plan: "plus", keys: ["premium_themes"], label: `${THEMES.length - freeThemes} premium themes`, slide: "design" },
  { id: "font-pairings", plan: "plus", keys: ["custom_fonts"], label: `${FONT_PAIRINGS.length} font pairings`, slide: "design" },
  { id: "main-button", plan: "plus", keys: ["main_button"], label: "A main call-to-action button", note: "One link that stands out from the rest", slide: "design" },
  { id: "remove-branding", plan: "plus", keys: ["remove_branding"], label: "Remove Plinth branding", slide: "design" },
  {
    id: "detailed-analytics",
    plan: "plus",
    keys: ["detailed_analytics"],
    label: "Detailed analytics",
    note: "Clicks and click-through rate per link, traffic sources, countries, campaigns, CSV and JSON export",
    slide: "grow",
  },
  { id: "seo", plan: "plus", keys: ["seo_settings"], label: "SEO title and description", note: "How your page shows in search results", slide: "grow" },
  {
    id: "promote-and-earn",
    plan: "plus",
    keys: ["affiliate_program", "promote_plinth"],
    label: "Promote & Earn affiliate programme",
    note: `${pct}% commission on every referral, paid out in cash or as months of Plus`,
    slide: "grow",
  },
  {
    id: "tips-and-paid-downloads",
    plan: "plus",
    keys: ["creator_payments"],
    label: "Tips and paid downloads",
    note: "Visitors tip you or buy your download through Stripe, paid straight into your own Stripe account",
    slide: "grow",
  },
  { id: "billing-history", plan: "plus", keys: ["billing_history"], label: "Billing history and invoices" },
  {
    id: "custom-domain",
    plan: "plus",
    keys: ["custom_domain"],
    label: "Your own domain",
    note: "Your page at an address such as links.yourname.com, its certificate made for you",
    slide: "grow",
  },
] as const satisfies readonly SiteFeature[];

export type SiteFeatureId = (typeof SITE_FEATURES)[number]["id"];

/** The rows a plan includes: every Lite row, and on Plus every row. */
export const siteFeaturesOf = (plan: PlanType): readonly SiteFeature[] => (plan === "plus" ? SITE_FEATURES : SITE_FEATURES.filter((f) => f.plan === "lite"));

/** The rows sold on one of the landing page's Plus slides, in table order. */
export const slideFeatures = (slide: PlusSlide): readonly SiteFeature[] => SITE_FEATURES.filter((f: SiteFeature) => f.slide === slide);
