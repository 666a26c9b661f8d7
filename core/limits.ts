/**
 * Business constants and limits (docs/product.md section 9, docs/product.md section 10). Each number is named once here and
 * used by the editor to guide, the API to enforce and the renderer to cap.
 */
const MINUTE = 60_000;

export const LIMITS = {
  USERNAME_MIN: 3,
  USERNAME_MAX: 30,
  USERNAME_CHECK_DEBOUNCE_MS: 500,
  EMAIL_MAX: 254,
  PASSWORD_MIN: 12,
  /** Strength checks: length, upper, lower, number, special. */
  PASSWORD_CHECKS_TOTAL: 5,
  PASSWORD_CHECKS_REQUIRED: 4,
  /** argon2 would accept more, but a cap keeps hashing time bounded against abuse. */
  PASSWORD_MAX: 256,

  OTP_LENGTH: 6,
  OTP_TTL_MS: 10 * MINUTE,
  OTP_MAX_ATTEMPTS: 5,
  OTP_RESEND_INTERVAL_MS: 1 * MINUTE,

  THROTTLE_MAX_FAILURES: 5,
  THROTTLE_WINDOW_MS: 15 * MINUTE,

  TRIAL_DAYS: 7,

  LITE_MAX_LINKS: 7,
  LITE_MAX_VISIBLE_SOCIAL: 4,
  LITE_MAX_SOCIAL_TOTAL: 20,

  DISPLAY_NAME_MAX: 50,
  BIO_MAX: 500,
  SEO_DESCRIPTION_MAX: 160,
  /** Our choice: search engines cut titles near 60 characters. */
  SEO_TITLE_MAX: 60,
  /** Our choice: long enough for an about section, short enough to keep the page small. */
  LONG_FORM_TEXT_MAX: 5000,
  INITIALS_MAX: 2,
  /** Our choice: link and list titles. */
  LINK_TITLE_MAX: 100,
  LIST_TITLE_MAX: 100,
  URL_MAX: 2048,
  DONATION_MESSAGE_MAX: 280,
  LEAD_DESCRIPTION_MAX: 500,
  TEXT_LINK_TEXT_MAX: 500,
  VCF_FIELD_MAX: 100,

  IMAGE_MAX_BYTES: 2 * 1024 * 1024,
  CROPPER_VIEWPORT_PX: 400,
  CROPPER_ZOOM_MAX: 3,
  CROPPER_ZOOM_STEP: 0.1,
  CROP_OUTPUT_PROFILE_PX: 400,
  CROP_OUTPUT_WIDE_PX: 800,
  CROP_JPEG_QUALITY: 0.95,

  PLUS_PRICE_CENTS: 899,
  AFFILIATE_COMMISSION_RATE: 0.2,
  PAYOUT_MIN_CENTS: 2000,
  PAYOUT_FEE_RATE: 0.03,
  PAYOUT_MIN_PAYING_MONTHS: 3,

  QR_MAX_SIZE: 250,
  RELOAD_AFTER_PUBLISH_MS: 1000,
  LOGOUT_UPSELL_DELAY_MS: 500,
  CAROUSEL_INTERVAL_MS: 4000,
  ANALYTICS_PRESET_DAYS: [7, 30, 90] as const,
  ANALYTICS_DEFAULT_DAYS: 30,
  /** Versions kept for rollback. */
  ROLLBACK_VERSIONS: 20,
  /** Our choice (ADR 240): one custom domain per account, which has one page. */
  CUSTOM_DOMAINS_PER_ACCOUNT: 1,
} as const;

/** The affiliate commission as owners read it ("20%"). */
export const COMMISSION_PERCENT = `${Math.round(LIMITS.AFFILIATE_COMMISSION_RATE * 100)}%`;

export const REPORT_REASONS = ["spam", "harassment", "inappropriate", "copyright", "impersonation", "other"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
/** How the report dialog and the console name each reason. */
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  spam: "Spam",
  harassment: "Harassment or bullying",
  inappropriate: "Inappropriate content",
  copyright: "Copyright violation",
  impersonation: "Impersonation",
  other: "Other",
};

export const CANCEL_REASONS = [
  "Too expensive",
  "Not using the features",
  "Found a better alternative",
  "Technical issues",
  "Other",
] as const;
