/**
 * Link types (docs/product.md section 3 and 5). promote_{product} is promote_plinth for us.
 */
export const PROMOTE_LINK_TYPE = "promote_plinth";

export const LINK_TYPES = [
  "standard_url",
  "label",
  "text_link",
  "donation",
  "lead_magnet",
  "vcf",
  "music",
  "social",
  PROMOTE_LINK_TYPE,
  // Payments on the creator's Stripe account (ADR 230, 231).
  "tip",
  "paid_download",
] as const;
export type LinkType = (typeof LINK_TYPES)[number];

/** Editor labels for each stored type. */
export const LINK_TYPE_LABELS: Record<LinkType, string> = {
  standard_url: "Link",
  label: "Label",
  text_link: "Text Link",
  donation: "Donation",
  lead_magnet: "Lead Magnet",
  vcf: "Contact Card",
  music: "Music",
  social: "Social",
  [PROMOTE_LINK_TYPE]: "Promote & Earn",
  tip: "Tip",
  paid_download: "Paid Download",
};

/**
 * The types the Add Link dialog offers, in its order: every stored type (docs/product.md section 3). The
 * site sells only what the dialog offers (ADR 143); Music and Social joined with ADR 211, Tip and Paid
 * Download with their fields (ADR 235).
 */
export const EDITOR_LINK_TYPES = ["standard_url", "label", "text_link", "donation", "tip", "paid_download", "music", "social", "lead_magnet", "vcf", PROMOTE_LINK_TYPE] as const satisfies readonly LinkType[];
export type EditorLinkType = (typeof EDITOR_LINK_TYPES)[number];

/**
 * docs/product.md section 6: the link types a Lite owner may use. A Social button is a Lite link, as a
 * social icon is; a Music release is Plus (ADR 211). A player is a way of showing a standard link.
 */
export const LITE_LINK_TYPES: readonly LinkType[] = ["standard_url", "label", "text_link", "donation", "social"];

/** Link types whose stored url is '#', because the page builds their action itself. */
export const HASH_URL_LINK_TYPES: readonly LinkType[] = ["label", "vcf", "tip", "paid_download"];

/** Link types for which the editor asks for a URL. */
export const URL_REQUIRED_LINK_TYPES: readonly LinkType[] = ["standard_url", "donation", "music", "social"];
