import { describe, expect, it } from "vitest";
import { contrastRatio, readableOn } from "#core/color.ts";
import { HASH_URL_LINK_TYPES, LINK_TYPE_LABELS, LINK_TYPES, LITE_LINK_TYPES, PROMOTE_LINK_TYPE } from "#core/link-types.ts";
import { getPlatform, PLATFORM_IDS, SOCIAL_PLATFORMS } from "#core/platforms.ts";
import { isReservedUsername, SPEC_RESERVED_USERNAMES } from "#core/reserved.ts";
import {
  APPEARANCE_DEFAULTS,
  BUTTON_STYLES,
  FONT_PAIRING_IDS,
  FREE_THEME_IDS,
  FULLWIDTH_SUBTYPES,
  getTheme,
  ICON_SUBTYPES,
  SOCIAL_POSITIONS,
  THEME_IDS,
  THEMES,
} from "#core/themes.ts";

describe("link types (docs/product.md sections 3, 5 and 6)", () => {
  it("stores docs/product.md's types, promote_{product} being promote_plinth", () => {
    expect(PROMOTE_LINK_TYPE).toBe("promote_plinth");
    expect([...LINK_TYPES]).toEqual(["standard_url", "label", "text_link", "donation", "lead_magnet", "vcf", "music", "social", "promote_plinth", "tip", "paid_download"]);
  });

  it("labels them as the editor shows them", () => {
    expect(LINK_TYPE_LABELS).toMatchObject({ standard_url: "Link", lead_magnet: "Lead Magnet", vcf: "Contact Card", music: "Music", social: "Social", label: "Label", text_link: "Text Link" });
  });

  it("limits Lite to standard_url, label, text_link and donation", () => {
    expect([...LITE_LINK_TYPES]).toEqual(["standard_url", "label", "text_link", "donation", "social"]);
  });

  it("stores '#' for label and vcf, and for Tip and Paid download, whose page builds their action (ADR 231)", () => {
    expect([...HASH_URL_LINK_TYPES]).toEqual(["label", "vcf", "tip", "paid_download"]);
  });
});

describe("social platforms", () => {
  it("has docs/product.md's 18 platforms, each with an https base URL", () => {
    expect([...PLATFORM_IDS]).toEqual([
      "tiktok", "instagram", "snapchat", "youtube", "x", "spotify", "soundcloud", "facebook", "linkedin",
      "reddit", "pinterest", "twitch", "vimeo", "github", "strava", "etsy", "behance", "whatsapp",
    ]);
    for (const p of SOCIAL_PLATFORMS) expect(p.baseUrl, p.id).toMatch(/^https:\/\/[a-z.]+\.[a-z]+\/[\w/@]*$/);
    expect(new Set(SOCIAL_PLATFORMS.map((p) => p.baseUrl)).size).toBe(18);
  });

  it("names Strava's handle an athlete id and WhatsApp's a phone number", () => {
    expect(getPlatform("strava")?.baseUrl).toBe("https://www.strava.com/athletes/");
    expect(getPlatform("whatsapp")?.baseUrl).toBe("https://wa.me/");
    expect(getPlatform("qr-code")).toBeUndefined();
  });
});

describe("themes, fonts and appearance (docs/product.md sections 6 and 9)", () => {
  it("has 12 themes, the 4 free ones being docs/product.md's", () => {
    expect(THEMES).toHaveLength(12);
    expect(FREE_THEME_IDS).toEqual(["minimalist-light", "minimalist-dark", "vibrant-bright", "pastel-soft"]);
    expect(THEME_IDS.filter((id) => !(FREE_THEME_IDS as readonly string[]).includes(id))).toEqual([
      "gradient-sunset", "neon-dark", "forest-green", "ocean-blue", "royal-purple", "golden-hour", "mint-fresh", "rose-gold",
    ]);
  });

  it("keeps every theme's text readable (WCAG AA contrast on its base colour and its buttons)", () => {
    for (const t of THEMES) {
      expect(contrastRatio(t.text, t.backgroundBase), `${t.id} text`).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(t.mutedText, t.backgroundBase), `${t.id} muted`).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(t.buttonText, t.buttonBackground), `${t.id} button`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("picks readable button text for any colour an owner chooses", () => {
    expect(contrastRatio("#ffffff", "#000000")).toBeCloseTo(21, 5);
    for (let i = 0; i < 4096; i++) {
      const bg = `#${(i * 4099).toString(16).padStart(6, "0").slice(-6)}`;
      // Button labels are large text: AA asks 3:1 of them.
      expect(contrastRatio(readableOn(bg, [], 3), bg), bg).toBeGreaterThanOrEqual(3);
    }
    expect(readableOn("#3b82f6")).toBe("#111827");
    expect(readableOn("#1e3a8a")).toBe("#ffffff");
  });

  it("falls back to minimalist-light for an unknown theme", () => {
    expect(getTheme("nope").id).toBe("minimalist-light");
    expect(getTheme(null).id).toBe("minimalist-light");
  });

  it("has the 5 font pairings, 3 button styles, 3 social positions and the picture subtypes", () => {
    expect([...FONT_PAIRING_IDS]).toEqual(["modern-sans", "elegant-serif", "tech-mono", "creative-display", "professional"]);
    expect([...BUTTON_STYLES]).toEqual(["box", "rounded", "pill"]);
    expect([...SOCIAL_POSITIONS]).toEqual(["top", "bottom", "floating"]);
    expect([...ICON_SUBTYPES]).toEqual(["rounded", "rounded_corners", "square"]);
    expect([...FULLWIDTH_SUBTYPES]).toEqual(["portrait", "square", "landscape"]);
  });

  it("uses docs/product.md's defaults", () => {
    expect(APPEARANCE_DEFAULTS).toMatchObject({ theme: "minimalist-light", initialsBackgroundColor: "#6366f1" });
  });
});

describe("reserved usernames", () => {
  it("reserves docs/product.md's list, in any case", () => {
    expect([...SPEC_RESERVED_USERNAMES]).toEqual(["auth", "dashboard", "admin", "api", "en", "www", "mail", "ftp", "localhost", "test", "dev", "app", "support", "blog", "status"]);
    for (const name of SPEC_RESERVED_USERNAMES) {
      expect(isReservedUsername(name)).toBe(true);
      expect(isReservedUsername(name.toUpperCase())).toBe(true);
    }
  });

  it("reserves every top-level route the site serves", () => {
    for (const name of ["features", "pricing", "help", "contact", "privacy", "terms", "cookies", "affiliate-terms", "404", "media", "_p", "_astro"]) {
      expect(isReservedUsername(name), name).toBe(true);
    }
    expect(isReservedUsername("ada_lovelace")).toBe(false);
  });
});

describe("reserved usernames cover the site's own pages", () => {
  it("reserves the name of every top-level page and folder under editor/pages, and of every marketing page its route makes", async () => {
    const { readdirSync } = await import("node:fs");
    const { SITE_PAGES } = await import("#editor/components/site/site-pages.ts");
    const names = readdirSync(new URL("../../../editor/pages", import.meta.url))
      .map((f) => f.replace(/\.(astro|ts|tsx|md)$/, ""))
      .filter((n) => n !== "index" && !n.startsWith("["))
      .concat(Object.values(SITE_PAGES).map((p) => p.path.slice(1)).filter((n) => n !== ""));
    expect(names.length).toBeGreaterThan(5);
    for (const n of names) expect(isReservedUsername(n), n).toBe(true);
  });
});
