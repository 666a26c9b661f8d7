/**
 * core/schemas/profile.ts rules the browser and the API share: the byte signatures, the crop sizes,
 * the Plus-only edit check and the search result. (The routes are tested in profile.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { LIMITS } from "#core/limits.ts";
import { cropOutputSize, pictureFileError, plusOnlyFeatureOf, searchResultOf, sniffImageType } from "#core/schemas/profile.ts";

const bytes = (...b: number[]) => new Uint8Array(b);
const text = (s: string) => new TextEncoder().encode(s);

describe("sniffImageType", () => {
  it("reads JPEG, PNG, GIF and WebP signatures", () => {
    expect(sniffImageType(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10))).toBe("image/jpeg");
    expect(sniffImageType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe("image/png");
    expect(sniffImageType(text("GIF87a..."))).toBe("image/gif");
    expect(sniffImageType(text("GIF89a..."))).toBe("image/gif");
    expect(sniffImageType(text("RIFF\u0001\u0000\u0000\u0000WEBPVP8 "))).toBe("image/webp");
  });

  it("refuses everything else, however it is named", () => {
    for (const s of ["<svg xmlns='http://www.w3.org/2000/svg'/>", "<?xml version='1.0'?><svg/>", "hello", "", "GIF88a", "RIFF\u0000\u0000\u0000\u0000WAVE", "%PDF-1.7", "II*\u0000"]) {
      expect(sniffImageType(text(s)), s).toBeNull();
    }
    expect(sniffImageType(bytes(0xff, 0xd8))).toBeNull();
    expect(sniffImageType(bytes(0x89, 0x50, 0x4e, 0x47))).toBeNull();
  });
});

describe("pictureFileError (the browser's first check)", () => {
  it("gives docs/product.md's title and text for a wrong type and for more than 2 MB", () => {
    expect(pictureFileError({ type: "image/svg+xml", size: 10 })).toEqual({ title: "Invalid file type", text: "Please select a valid image file (JPG, PNG, GIF)" });
    expect(pictureFileError({ type: "text/plain", size: 10 })?.title).toBe("Invalid file type");
    expect(pictureFileError({ type: "image/png", size: LIMITS.IMAGE_MAX_BYTES + 1 })).toEqual({ title: "File too large", text: "Please select an image smaller than 2MB" });
    expect(pictureFileError({ type: "image/gif", size: LIMITS.IMAGE_MAX_BYTES })).toBeNull();
  });
});

describe("cropOutputSize", () => {
  it("is a 400 px square for the icon and 800 px wide at 16:9 for full width (docs/product.md section 9)", () => {
    expect(cropOutputSize("icon")).toEqual({ width: 400, height: 400 });
    expect(cropOutputSize("full_width")).toEqual({ width: 800, height: 450 });
    expect(cropOutputSize("full_width", "portrait")).toEqual({ width: 800, height: 1067 });
    expect(cropOutputSize("full_width", "square")).toEqual({ width: 800, height: 800 });
    expect(cropOutputSize("full_width", "landscape")).toEqual({ width: 800, height: 450 });
  });
});

describe("plusOnlyFeatureOf", () => {
  const current = { seoTitle: "", seoDescription: "", longFormText: "", selectedThemeName: "minimalist-light" as const, customFontPairingName: null, removeBranding: false, hidePlatformBranding: false };

  it("names the Plus feature a new value would use", () => {
    expect(plusOnlyFeatureOf({ seoTitle: "x" }, current)).toBe("seo_settings");
    expect(plusOnlyFeatureOf({ seoDescription: "x" }, current)).toBe("seo_settings");
    expect(plusOnlyFeatureOf({ longFormText: "x" }, current)).toBe("long_form_text");
    expect(plusOnlyFeatureOf({ selectedThemeName: "neon-dark" }, current)).toBe("premium_themes");
    expect(plusOnlyFeatureOf({ customFontPairingName: "tech-mono" }, current)).toBe("custom_fonts");
    expect(plusOnlyFeatureOf({ removeBranding: true }, current)).toBe("remove_branding");
    expect(plusOnlyFeatureOf({ hidePlatformBranding: true }, current)).toBe("remove_branding");
  });

  it("allows free choices, clearing, blank text and values already stored", () => {
    expect(plusOnlyFeatureOf({ selectedThemeName: "pastel-soft", bio: "x", displayName: "y", buttonShapeStyle: "pill", customPageBackgroundColor: "#000000" }, current)).toBeNull();
    expect(plusOnlyFeatureOf({ seoTitle: "", longFormText: "   ", customFontPairingName: null, removeBranding: false }, current)).toBeNull();
    const stored = { ...current, seoTitle: "Kept", selectedThemeName: "rose-gold" as const, customFontPairingName: "tech-mono" as const, removeBranding: true };
    expect(plusOnlyFeatureOf({ seoTitle: "Kept", selectedThemeName: "rose-gold", customFontPairingName: "tech-mono", removeBranding: true }, stored)).toBeNull();
    expect(plusOnlyFeatureOf({ selectedThemeName: "neon-dark" }, stored)).toBe("premium_themes");
  });
});

describe("searchResultOf", () => {
  const p = { username: "ada", displayName: "Ada", bio: "Engines", seoTitle: "Ada | Engines", seoDescription: "All about engines" };
  it("uses the SEO fields under Plus, else the name and bio, else a default", () => {
    expect(searchResultOf(p, true)).toEqual({ title: "Ada | Engines", description: "All about engines" });
    expect(searchResultOf(p, false)).toEqual({ title: "Ada", description: "Engines" });
    expect(searchResultOf({ ...p, displayName: "", bio: "", seoTitle: "", seoDescription: "" }, true)).toEqual({ title: "ada", description: "ada on Plinth" });
  });
});
