import { describe, expect, it } from "vitest";
import { getPlatform, SOCIAL_PLATFORMS } from "#core/platforms.ts";
import { SocialAddSchema } from "#core/schemas/social.ts";
import { cleanHandle, handleOf } from "#core/social-handle.ts";

const p = (id: string) => getPlatform(id)!;

describe("social handles (docs/product.md sections 3 and 5)", () => {
  it("trims the handle and refuses an empty one", () => {
    expect(cleanHandle(p("instagram"), "  ada  ")).toBe("ada");
    expect(cleanHandle(p("instagram"), "   ")).toBeNull();
  });

  it("reduces a pasted profile URL to its handle, with or without scheme and www", () => {
    expect(cleanHandle(p("instagram"), "https://www.instagram.com/ada/")).toBe("ada");
    expect(cleanHandle(p("instagram"), "instagram.com/ada?hl=en")).toBe("ada");
    expect(cleanHandle(p("tiktok"), "https://www.tiktok.com/@ada")).toBe("ada");
    expect(cleanHandle(p("x"), "@ada")).toBe("ada");
  });

  it("keeps only digits for WhatsApp, with docs/product.md's message when none remain", () => {
    expect(cleanHandle(p("whatsapp"), "+44 (0) 20-7946 0958")).toBe("4402079460958");
    const r = SocialAddSchema.safeParse({ platform: "whatsapp", handle: "call me" });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe("Please enter a valid phone number for WhatsApp");
  });

  it("refuses handles that could break out of a URL", () => {
    for (const bad of ['a"b', "<script>", "a b", "javascript:alert(1)"]) expect(cleanHandle(p("github"), bad), bad).toBeNull();
  });

  it("stores base URL plus handle, and reads the handle back", () => {
    for (const platform of SOCIAL_PLATFORMS) {
      const r = SocialAddSchema.parse({ platform: platform.id, handle: platform.id === "whatsapp" ? "15551234567" : "someone" });
      expect(r.url.startsWith(platform.baseUrl)).toBe(true);
      expect(handleOf(platform, r.url)).toBe(platform.id === "whatsapp" ? "15551234567" : "someone");
    }
  });

  it("refuses an unknown platform", () => {
    expect(SocialAddSchema.safeParse({ platform: "myspace", handle: "ada" }).success).toBe(false);
  });
});
