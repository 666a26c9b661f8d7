/**
 * Human-readable names for plan feature keys, for upgrade prompts ("Link scheduling is a Plinth Plus
 * feature"). What the site sells, and in which words, is core/features.ts (ADR 143).
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
  music: "Music releases",
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
  creator_payments: "Tips and paid downloads",
  long_form_text: "Long-form text",
  billing_history: "Billing history",
  custom_domain: "Custom domain",
};
