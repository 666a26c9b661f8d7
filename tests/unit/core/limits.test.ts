import { describe, expect, it } from "vitest";
import { CANCEL_REASONS, LIMITS, REPORT_REASONS } from "#core/limits.ts";

describe("business constants (docs/product.md section 9)", () => {
  it.each([
    ["USERNAME_MIN", 3],
    ["USERNAME_MAX", 30],
    ["USERNAME_CHECK_DEBOUNCE_MS", 500],
    ["EMAIL_MAX", 254],
    ["PASSWORD_MIN", 12],
    ["PASSWORD_CHECKS_TOTAL", 5],
    ["PASSWORD_CHECKS_REQUIRED", 4],
    ["OTP_LENGTH", 6],
    ["OTP_TTL_MS", 10 * 60_000],
    ["OTP_MAX_ATTEMPTS", 5],
    ["OTP_RESEND_INTERVAL_MS", 60_000],
    ["THROTTLE_MAX_FAILURES", 5],
    ["THROTTLE_WINDOW_MS", 15 * 60_000],
    ["TRIAL_DAYS", 7],
    ["LITE_MAX_LINKS", 7],
    ["LITE_MAX_VISIBLE_SOCIAL", 4],
    ["LITE_MAX_SOCIAL_TOTAL", 20],
    ["DISPLAY_NAME_MAX", 50],
    ["BIO_MAX", 500],
    ["SEO_DESCRIPTION_MAX", 160],
    ["INITIALS_MAX", 2],
    ["IMAGE_MAX_BYTES", 2 * 1024 * 1024],
    ["CROPPER_VIEWPORT_PX", 400],
    ["CROPPER_ZOOM_MAX", 3],
    ["CROPPER_ZOOM_STEP", 0.1],
    ["CROP_OUTPUT_PROFILE_PX", 400],
    ["CROP_OUTPUT_WIDE_PX", 800],
    ["CROP_JPEG_QUALITY", 0.95],
    ["PLUS_PRICE_CENTS", 899],
    ["AFFILIATE_COMMISSION_RATE", 0.2],
    ["PAYOUT_MIN_CENTS", 2000],
    ["PAYOUT_FEE_RATE", 0.03],
    ["PAYOUT_MIN_PAYING_MONTHS", 3],
    ["QR_MAX_SIZE", 250],
    ["RELOAD_AFTER_PUBLISH_MS", 1000],
    ["LOGOUT_UPSELL_DELAY_MS", 500],
    ["CAROUSEL_INTERVAL_MS", 4000],
    ["ANALYTICS_DEFAULT_DAYS", 30],
  ] as const)("%s is %s", (key, value) => {
    expect(LIMITS[key]).toBe(value);
  });

  it("offers the analytics presets 7, 30 and 90 days", () => {
    expect([...LIMITS.ANALYTICS_PRESET_DAYS]).toEqual([7, 30, 90]);
  });

  it("lists docs/product.md's report and cancel reasons in order", () => {
    expect([...REPORT_REASONS]).toEqual(["spam", "harassment", "inappropriate", "copyright", "impersonation", "other"]);
    expect([...CANCEL_REASONS]).toEqual(["Too expensive", "Not using the features", "Found a better alternative", "Technical issues", "Other"]);
  });
});
