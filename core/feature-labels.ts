/**
 * Human-readable names for plan feature keys, for the pricing page and upgrade prompts.
 */
import type { FeatureKey } from "./plans.ts";

export const FEATURE_LABELS: Record<FeatureKey, string> = {
  basic_analytics: "Analytics overview",
  standard_links: "Standard links",
  basic_themes: "Basic themes",
  profile_picture: "Profile picture",
  bio: "Bio",
  social_links_basic: "Social links (up to 4 visible)",
  unlimited_links: "Unlimited links",
  unlimited_social_links: "Unlimited social links",
  lead_magnet: "Lead magnet links",
  vcf: "Contact cards (vCard)",
  promote_plinth: "Promote & Earn affiliate link",
  main_button: "Main call-to-action button",
  scheduling: "Link scheduling",
  thumbnails: "Link thumbnails",
  detailed_analytics: "Detailed analytics",
  lead_viewing: "View and export leads",
  lead_magnets: "Lead magnets",
  seo_settings: "SEO settings",
  affiliate_program: "Affiliate programme",
  remove_branding: "Remove Plinth branding",
  premium_themes: "Premium themes",
  custom_fonts: "Custom fonts",
  long_form_text: "Long-form text",
  billing_history: "Billing history",
};

/** What a label alone does not say, shown under it on /pricing (ADR 074: which analytics are Lite, which Plus). */
export const FEATURE_NOTES: Partial<Record<FeatureKey, string>> = {
  basic_analytics: "Page views, visitors and link clicks, day by day",
  detailed_analytics: "Clicks and click-through rate per link, traffic sources, countries, campaigns, CSV and JSON export",
};
