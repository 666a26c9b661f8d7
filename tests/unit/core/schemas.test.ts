import { describe, expect, it } from "vitest";
import {
  AFFILIATE_MESSAGES,
  CancelSubscriptionSchema,
  payoutBadgeVariant,
  payoutFeeCents,
  payoutRequestSchema,
  renewalMonthOptions,
  renewalSchema,
} from "#core/schemas/affiliate.ts";
import { AppearanceSchema, InitialsSchema, PictureSettingsSchema, pictureFileError, PROFILE_MESSAGES, ProfileTextSchema } from "#core/schemas/profile.ts";
import { LeadCaptureSchema, PageReportSchema, TrackEventSchema } from "#core/schemas/visitor.ts";

const first = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe("profile text (docs/product.md section 5, Profile text)", () => {
  it("allows display name 50, bio 500, SEO description 160, and not one more", () => {
    expect(ProfileTextSchema.safeParse({ displayName: "x".repeat(50), bio: "x".repeat(500), seoDescription: "x".repeat(160) }).success).toBe(true);
    expect(first(ProfileTextSchema.safeParse({ displayName: "x".repeat(51) }))).toBe(PROFILE_MESSAGES.displayNameTooLong);
    expect(first(ProfileTextSchema.safeParse({ bio: "x".repeat(501) }))).toBe(PROFILE_MESSAGES.bioTooLong);
    expect(first(ProfileTextSchema.safeParse({ seoDescription: "x".repeat(161) }))).toBe(PROFILE_MESSAGES.seoDescriptionTooLong);
  });

  it("refuses fields it does not know", () => {
    expect(ProfileTextSchema.safeParse({ username: "takeover" }).success).toBe(false);
    expect(ProfileTextSchema.safeParse({ planType: "plus" }).success).toBe(false);
  });

  it("keeps at most 2 initials, shown uppercase, letters only", () => {
    expect(InitialsSchema.parse(" ab ")).toBe("AB");
    expect(first(InitialsSchema.safeParse("abc"))).toBe(PROFILE_MESSAGES.initialsInvalid);
    expect(first(InitialsSchema.safeParse("<b"))).toBe(PROFILE_MESSAGES.initialsInvalid);
  });
});

describe("picture and appearance", () => {
  it("gives docs/product.md's refusals for a wrong type or an oversized file", () => {
    expect(pictureFileError({ type: "image/svg+xml", size: 10 })).toEqual({ title: "Invalid file type", text: "Please select a valid image file (JPG, PNG, GIF)" });
    expect(pictureFileError({ type: "text/plain", size: 10 })?.title).toBe("Invalid file type");
    expect(pictureFileError({ type: "image/png", size: 2 * 1024 * 1024 + 1 })).toEqual({ title: "File too large", text: "Please select an image smaller than 2MB" });
    expect(pictureFileError({ type: "image/gif", size: 2 * 1024 * 1024 })).toBeNull();
  });

  it("takes only known styles and hex colours", () => {
    expect(PictureSettingsSchema.safeParse({ profilePictureStyle: "initials", initialsBgColor: "#6366F1" }).data).toEqual({ profilePictureStyle: "initials", initialsBgColor: "#6366f1" });
    expect(PictureSettingsSchema.safeParse({ profilePictureStyle: "spinning" }).success).toBe(false);
    for (const bad of ["red", "#fff", "#12345g", "#123456;background:url(x)", "expression(alert(1))"]) {
      expect(first(AppearanceSchema.safeParse({ customPageBackgroundColor: bad })), bad).toBe(PROFILE_MESSAGES.colorInvalid);
    }
    expect(AppearanceSchema.safeParse({ customPageBackgroundColor: null, selectedThemeName: "rose-gold" }).success).toBe(true);
    expect(AppearanceSchema.safeParse({ selectedThemeName: "hacker" }).success).toBe(false);
  });
});

describe("visitor actions (docs/product.md section 5, Visitors)", () => {
  it("requires the lead e-mail, trimmed, with docs/product.md's message", () => {
    expect(first(LeadCaptureSchema.safeParse({ linkId: "l1", email: "   " }))).toBe("Please enter your email address");
    expect(first(LeadCaptureSchema.safeParse({ linkId: "l1" }))).toBe("Please enter your email address");
    expect(LeadCaptureSchema.parse({ linkId: "l1", email: " ada@example.com " }).email).toBe("ada@example.com");
    expect(first(LeadCaptureSchema.safeParse({ linkId: "l1", email: "<script>@x" }))).toBe("Please enter a valid email address");
  });

  it("requires a report reason from docs/product.md's list; details are optional", () => {
    expect(first(PageReportSchema.safeParse({ username: "ada" }))).toBe("Please select a reason");
    expect(first(PageReportSchema.safeParse({ username: "ada", reason: "boring" }))).toBe("Please select a reason");
    expect(PageReportSchema.parse({ username: "Ada", reason: "spam" })).toEqual({ username: "ada", reason: "spam", details: "" });
  });

  it("accepts the two tracking events only", () => {
    expect(TrackEventSchema.safeParse({ type: "page_view", username: "ada" }).success).toBe(true);
    expect(TrackEventSchema.safeParse({ type: "link_click", username: "ada" }).success).toBe(false);
    expect(TrackEventSchema.safeParse({ type: "purchase", username: "ada" }).success).toBe(false);
  });
});

describe("affiliate and subscription forms (docs/product.md sections 5 and 9)", () => {
  it("takes payouts from 20 up to the eligible amount, in cents, step 0.01", () => {
    const s = payoutRequestSchema(5000);
    expect(s.parse({ amount: 20, payoutEmail: "me@paypal.example" })).toEqual({ amount: 2000, payoutEmail: "me@paypal.example" });
    expect(s.parse({ amount: 49.99, payoutEmail: "me@paypal.example" }).amount).toBe(4999);
    expect(first(s.safeParse({ amount: 19.99, payoutEmail: "me@paypal.example" }))).toBe(AFFILIATE_MESSAGES.amountTooSmall);
    expect(first(s.safeParse({ amount: 50.01, payoutEmail: "me@paypal.example" }))).toBe(AFFILIATE_MESSAGES.amountTooLarge);
    expect(first(s.safeParse({ amount: 20.001, payoutEmail: "me@paypal.example" }))).toBe(AFFILIATE_MESSAGES.amountStep);
    expect(first(s.safeParse({ amount: "20", payoutEmail: "me@paypal.example" }))).toBe(AFFILIATE_MESSAGES.amountInvalid);
    expect(first(s.safeParse({ amount: 20, payoutEmail: "" }))).toBe(AFFILIATE_MESSAGES.paypalRequired);
    expect(first(s.safeParse({ amount: 20, payoutEmail: "nope" }))).toBe(AFFILIATE_MESSAGES.paypalInvalid);
  });

  it("charges a 3% processing fee", () => {
    expect(payoutFeeCents(2000)).toBe(60);
    expect(payoutFeeCents(3333)).toBe(100);
  });

  it("offers renewal from 1 month up to the whole months the balance affords at 8.99", () => {
    expect(renewalMonthOptions(898)).toEqual([]);
    expect(renewalMonthOptions(899)).toEqual([1]);
    expect(renewalMonthOptions(2700)).toEqual([1, 2, 3]);
    expect(renewalSchema(2700).safeParse({ months: 3 }).success).toBe(true);
    expect(first(renewalSchema(2700).safeParse({ months: 4 }))).toBe(AFFILIATE_MESSAGES.renewalPeriodRequired);
    expect(first(renewalSchema(2700).safeParse({}))).toBe(AFFILIATE_MESSAGES.renewalPeriodRequired);
  });

  it("makes the cancel reason optional and uses the free text for Other", () => {
    expect(CancelSubscriptionSchema.parse({})).toEqual({ reason: null });
    expect(CancelSubscriptionSchema.parse({ reason: "Too expensive" })).toEqual({ reason: "Too expensive" });
    expect(CancelSubscriptionSchema.parse({ reason: "Other", otherText: "Moving on" })).toEqual({ reason: "Moving on" });
    expect(CancelSubscriptionSchema.safeParse({ reason: "Because" }).success).toBe(false);
  });

  it("colours payout status badges as docs/product.md says", () => {
    expect(payoutBadgeVariant("completed")).toBe("default");
    expect(payoutBadgeVariant("pending")).toBe("secondary");
    expect(payoutBadgeVariant("processing")).toBe("secondary");
    expect(payoutBadgeVariant("rejected")).toBe("destructive");
  });
});
