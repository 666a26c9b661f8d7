/**
 * The profile API behind Bio & SEO, Theme and the picture settings: docs/product.md's limits and messages,
 * the Plus gates (402 with the feature key), drafts that show as Draft Changes, and hostile input.
 */
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LIMITS } from "#core/limits.ts";
import { PICTURE_MESSAGES, PROFILE_MESSAGES } from "#core/schemas/profile.ts";
import { FREE_THEME_IDS, THEMES } from "#core/themes.ts";
import { userProfiles } from "#db/schema.ts";
import { createTestApp, sameOrigin, type TestApp } from "#tests/support/app.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
let owner: ApiOwner;
beforeEach(() => {
  t = createTestApp();
  owner = createApiOwner(t, "trial");
});
afterEach(() => t.close());

const json = async (r: Promise<Response>) => {
  const res = await r;
  return { status: res.status, body: (await res.json()) as any };
};
const row = (userId: string) => t.deps.db.select().from(userProfiles).where(eq(userProfiles.userId, userId)).get()!;
const endTrial = (o: ApiOwner) => t.deps.db.update(userProfiles).set({ trialEndsAt: new Date(Date.now() - 1000) }).where(eq(userProfiles.userId, o.userId)).run();

describe("GET /api/profile", () => {
  it("answers the draft page, the plan and the font files for the preview", async () => {
    await owner.call("POST", "/api/links", { linkType: "standard_url", title: "Shop", url: "https://shop.example" });
    const r = await json(owner.call("GET", "/api/profile"));
    expect(r.status).toBe(200);
    expect(r.body.snapshot.profile.username).toBe(owner.username);
    expect(r.body.snapshot.profile.selectedThemeName).toBe("minimalist-light");
    expect(r.body.snapshot.profile.initialsBgColor).toBe("#6366f1");
    expect(r.body.snapshot.links.map((l: any) => l.title)).toEqual(["Shop"]);
    expect(r.body.plan.planType).toBe("lite");
    expect(r.body.plan.trialEndsAt).toBeTruthy();
    expect(r.body.origin).toBe("http://localhost:4321");
    expect(Object.keys(r.body.fonts)).toContain("Playfair Display");
    expect(r.body.fonts["Inter"][0]).toMatch(/^\/_p\/fonts\/inter-[0-9a-f]+-400\.woff2$/);
  });

  it("needs a session", async () => {
    const r = await json(Promise.resolve(t.app.request("/api/profile")));
    expect(r.status).toBe(401);
    expect(r.body.error.message).toBe("User not authenticated");
  });
});

describe("PATCH /api/profile/text", () => {
  it("saves display name and bio as a draft (Draft Changes) and trims them", async () => {
    await owner.call("POST", "/api/publish");
    const before = row(owner.userId).updatedAt.getTime();
    const r = await json(owner.edit("PATCH", "/api/profile/text", { displayName: "  Ada Lovelace ", bio: "Maths, engines & poetry." }));
    expect(r.status).toBe(200);
    expect(r.body.profile.displayName).toBe("Ada Lovelace");
    expect(r.body.profile.bio).toBe("Maths, engines & poetry.");
    expect(row(owner.userId).updatedAt.getTime()).toBeGreaterThanOrEqual(before);
    const state = await json(owner.call("GET", "/api/publish/state"));
    expect(state.body.hasUnpublishedChanges).toBe(true);
    // The published page is untouched until Publish.
    const page = await t.app.request(`/${owner.username}`);
    expect(await page.text()).not.toContain("Ada Lovelace");
  });

  it("enforces docs/product.md's limits with its messages, at the limit and one over", async () => {
    const cases: [string, number, string][] = [
      ["displayName", LIMITS.DISPLAY_NAME_MAX, PROFILE_MESSAGES.displayNameTooLong],
      ["bio", LIMITS.BIO_MAX, PROFILE_MESSAGES.bioTooLong],
      ["seoTitle", LIMITS.SEO_TITLE_MAX, PROFILE_MESSAGES.seoTitleTooLong],
      ["seoDescription", LIMITS.SEO_DESCRIPTION_MAX, PROFILE_MESSAGES.seoDescriptionTooLong],
      ["longFormText", LIMITS.LONG_FORM_TEXT_MAX, PROFILE_MESSAGES.longFormTextTooLong],
    ];
    for (const [field, max, message] of cases) {
      const ok = await json(owner.edit("PATCH", "/api/profile/text", { [field]: "a".repeat(max) }));
      expect(ok.status, field).toBe(200);
      expect(ok.body.profile[field]).toHaveLength(max);
      const over = await json(owner.edit("PATCH", "/api/profile/text", { [field]: "b".repeat(max + 1) }));
      expect(over.status, field).toBe(400);
      expect(over.body.error.message).toBe(message);
      expect(over.body.error.fields[field]).toBe(message);
      expect((row(owner.userId) as any)[field]).toHaveLength(max);
    }
    expect(PROFILE_MESSAGES.bioTooLong).toBe("Bio must be 500 characters or less");
    expect(PROFILE_MESSAGES.seoDescriptionTooLong).toBe("Meta description must be 160 characters or less");
  });

  it("stores hostile text as text, and refuses unknown fields and wrong types", async () => {
    const script = `<script>alert(1)</script>"'><img src=x onerror=alert(1)>`;
    const r = await json(owner.edit("PATCH", "/api/profile/text", { displayName: script.slice(0, 50), bio: script }));
    expect(r.status).toBe(200);
    await owner.call("POST", "/api/publish");
    const html = await (await t.app.request(`/${owner.username}`)).text();
    expect(html).not.toContain("<script>alert(1)");
    expect(html).not.toContain("<img src=x");
    for (const body of [{ username: "hijack" }, { planType: "plus" }, { bio: 42 }, { bio: null }, { displayName: ["a"] }, "[]", "null"]) {
      const bad = await owner.edit("PATCH", "/api/profile/text", body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
    }
    expect(row(owner.userId).username).toBe(owner.username);
    expect(row(owner.userId).planType).toBe("lite");
  });

  it("gates SEO settings and long-form text behind Plus for a Lite owner (402 with the feature)", async () => {
    const lite = createApiOwner(t, "lite");
    const seo = await json(lite.edit("PATCH", "/api/profile/text", { seoDescription: "Best links" }));
    expect(seo.status).toBe(402);
    expect(seo.body.error.details.feature).toBe("seo_settings");
    expect(seo.body.error.message).toBe("This feature requires Plinth Plus. Click to upgrade!");
    expect((await json(lite.edit("PATCH", "/api/profile/text", { seoTitle: "Ada" }))).body.error.details.feature).toBe("seo_settings");
    expect((await json(lite.edit("PATCH", "/api/profile/text", { longFormText: "About me" }))).body.error.details.feature).toBe("long_form_text");
    expect(row(lite.userId).seoDescription).toBe("");
    // Bio and display name are for everyone; blank Plus fields are not a Plus choice.
    expect((await lite.edit("PATCH", "/api/profile/text", { bio: "Hello", seoTitle: "", longFormText: "   " })).status).toBe(200);
    // Trial and Plus owners may.
    expect((await owner.edit("PATCH", "/api/profile/text", { seoDescription: "Best links", longFormText: "About me" })).status).toBe(200);
    const plus = createApiOwner(t, "plus");
    expect((await plus.edit("PATCH", "/api/profile/text", { seoTitle: "Plus" })).status).toBe(200);
  });

  it("leaves an owner whose trial ended their stored Plus values, and lets them clear them", async () => {
    expect((await owner.edit("PATCH", "/api/profile/text", { seoDescription: "From the trial" })).status).toBe(200);
    endTrial(owner);
    expect((await owner.edit("PATCH", "/api/profile/text", { seoDescription: "From the trial", bio: "New bio" })).status).toBe(200);
    expect((await owner.edit("PATCH", "/api/profile/text", { seoDescription: "Changed" })).status).toBe(402);
    expect((await owner.edit("PATCH", "/api/profile/text", { seoDescription: "" })).status).toBe(200);
    expect(row(owner.userId).seoDescription).toBe("");
  });
});

describe("PATCH /api/profile/appearance", () => {
  it("saves every theme for a trial owner and every appearance choice", async () => {
    for (const theme of THEMES) {
      const r = await json(owner.edit("PATCH", "/api/profile/appearance", { selectedThemeName: theme.id }));
      expect(r.status, theme.id).toBe(200);
      expect(r.body.profile.selectedThemeName).toBe(theme.id);
    }
    const r = await json(
      owner.edit("PATCH", "/api/profile/appearance", {
        customPageBackgroundColor: "#ABCDEF",
        customButtonBackgroundColor: " #123456 ",
        customButtonBorderColor: "#000000",
        buttonShapeStyle: "pill",
        socialLinksPosition: "floating",
        customFontPairingName: "elegant-serif",
        removeBranding: true,
      }),
    );
    expect(r.status).toBe(200);
    expect(r.body.profile).toMatchObject({
      customPageBackgroundColor: "#abcdef",
      customButtonBackgroundColor: "#123456",
      customButtonBorderColor: "#000000",
      buttonShapeStyle: "pill",
      socialLinksPosition: "floating",
      customFontPairingName: "elegant-serif",
      removeBranding: true,
    });
    // null goes back to the theme's own colour and font
    const reset = await json(owner.edit("PATCH", "/api/profile/appearance", { customPageBackgroundColor: null, customFontPairingName: null }));
    expect(reset.body.profile.customPageBackgroundColor).toBeNull();
    expect(reset.body.profile.customFontPairingName).toBeNull();
  });

  it("refuses invalid colours, themes, fonts and styles with docs/product.md-style messages", async () => {
    for (const bad of ["red", "#fff", "#12345g", "javascript:alert(1)", "#1234567", "", "url(x)"]) {
      const r = await json(owner.edit("PATCH", "/api/profile/appearance", { customButtonBackgroundColor: bad }));
      expect(r.status, bad).toBe(400);
      expect(r.body.error.message).toBe(PROFILE_MESSAGES.colorInvalid);
    }
    expect((await json(owner.edit("PATCH", "/api/profile/appearance", { selectedThemeName: "hacker" }))).body.error.message).toBe(PROFILE_MESSAGES.themeInvalid);
    expect((await json(owner.edit("PATCH", "/api/profile/appearance", { customFontPairingName: "comic-sans" }))).body.error.message).toBe(PROFILE_MESSAGES.fontInvalid);
    for (const body of [{ buttonShapeStyle: "circle" }, { socialLinksPosition: "left" }, { removeBranding: "yes" }, { selectedThemeName: null }]) {
      expect((await owner.edit("PATCH", "/api/profile/appearance", body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(row(owner.userId).customButtonBackgroundColor).toBeNull();
  });

  it("gives a Lite owner the 4 free themes and colours, and gates the rest (402 with the feature)", async () => {
    const lite = createApiOwner(t, "lite");
    for (const id of FREE_THEME_IDS) expect((await lite.edit("PATCH", "/api/profile/appearance", { selectedThemeName: id })).status, id).toBe(200);
    for (const theme of THEMES.filter((x) => !x.free)) {
      const r = await json(lite.edit("PATCH", "/api/profile/appearance", { selectedThemeName: theme.id }));
      expect(r.status, theme.id).toBe(402);
      expect(r.body.error.details.feature).toBe("premium_themes");
    }
    expect(FREE_THEME_IDS).toHaveLength(4);
    expect((await json(lite.edit("PATCH", "/api/profile/appearance", { customFontPairingName: "tech-mono" }))).body.error.details.feature).toBe("custom_fonts");
    expect((await json(lite.edit("PATCH", "/api/profile/appearance", { removeBranding: true }))).body.error.details.feature).toBe("remove_branding");
    expect((await json(lite.edit("PATCH", "/api/profile/appearance", { hidePlatformBranding: true }))).body.error.details.feature).toBe("remove_branding");
    const ok = await lite.edit("PATCH", "/api/profile/appearance", { customPageBackgroundColor: "#fafafa", buttonShapeStyle: "box", socialLinksPosition: "bottom", removeBranding: false });
    expect(ok.status).toBe(200);
    // A refused edit changes nothing, not even the allowed fields sent with it.
    const mixed = await lite.edit("PATCH", "/api/profile/appearance", { buttonShapeStyle: "pill", selectedThemeName: "neon-dark" });
    expect(mixed.status).toBe(402);
    expect(row(lite.userId).buttonShapeStyle).toBe("box");
  });
});

describe("PATCH /api/profile/picture-settings", () => {
  it("saves style, shape, full-width height and initials (uppercase) with docs/product.md's toast text", async () => {
    const r = await json(
      owner.edit("PATCH", "/api/profile/picture-settings", {
        profilePictureStyle: "initials",
        initialsText: "al",
        initialsBgColor: "#0F766E",
        profilePictureIconSubtype: "square",
        profilePictureFullwidthSubtype: "landscape",
      }),
    );
    expect(r.status).toBe(200);
    expect(r.body.message).toBe(PICTURE_MESSAGES.styleUpdated);
    expect(r.body.profile).toMatchObject({ profilePictureStyle: "initials", initialsText: "AL", initialsBgColor: "#0f766e", profilePictureIconSubtype: "square", profilePictureFullwidthSubtype: "landscape" });
  });

  it("refuses more than 2 letters, non-letters and unknown styles", async () => {
    for (const initials of ["ABC", "A1", "<b", "😀"]) {
      const r = await json(owner.edit("PATCH", "/api/profile/picture-settings", { initialsText: initials }));
      expect(r.status, initials).toBe(400);
      expect(r.body.error.message).toBe(PROFILE_MESSAGES.initialsInvalid);
    }
    for (const body of [{ profilePictureStyle: "spinning" }, { profilePictureIconSubtype: "hexagon" }, { profilePictureUrl: "https://evil.example/x.png" }]) {
      expect((await owner.edit("PATCH", "/api/profile/picture-settings", body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(row(owner.userId).profilePictureUrl).toBeNull();
  });

  it("refuses a cross-site request", async () => {
    const r = await t.app.request("/api/profile/picture-settings", {
      method: "PATCH",
      headers: { ...sameOrigin({ Cookie: owner.cookie }), "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" },
      body: JSON.stringify({ profilePictureStyle: "hidden" }),
    });
    expect(r.status).toBe(403);
    expect(row(owner.userId).profilePictureStyle).toBe("icon");
  });
});
