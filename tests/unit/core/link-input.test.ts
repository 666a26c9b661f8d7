import { describe, expect, it } from "vitest";
import { LINK_MESSAGES, LinkInputSchema, storedUrlFor } from "#core/link-input.ts";
import { isWebUrl } from "#core/url-rule.ts";

const parse = (v: unknown) => LinkInputSchema.safeParse(v);
const messages = (v: unknown) => {
  const r = parse(v);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join("."), i.message]));
};

describe("link input (docs/product.md section 5, Links)", () => {
  it("requires a title, with the message", () => {
    expect(messages({ linkType: "label", title: "  " })).toEqual({ title: "Title is required" });
    expect(messages({ linkType: "label" })).toEqual({ title: "Title is required" });
    expect(messages({ linkType: "label", title: "x".repeat(101) })).toEqual({ title: LINK_MESSAGES.titleTooLong });
  });

  it("requires a URL for standard_url and donation", () => {
    expect(messages({ linkType: "standard_url", title: "Site" })).toEqual({ url: "URL is required" });
    expect(messages({ linkType: "donation", title: "Tip" })).toEqual({ url: "URL is required" });
    expect(messages({ linkType: "standard_url", title: "Site", url: "not a url" })).toEqual({ url: "Please enter a valid URL" });
    expect(parse({ linkType: "donation", title: "Tip", url: "https://ko-fi.com/me", data: { message: "Thanks" } }).success).toBe(true);
  });

  it("completes a URL typed without a scheme, and an e-mail address or number typed as a button's address (ADR 145)", () => {
    expect(parse({ linkType: "standard_url", title: "Shop", url: "shop.example.com" }).data?.url).toBe("https://shop.example.com");
    expect(parse({ linkType: "standard_url", title: "Mail", url: " hello@example.com " }).data?.url).toBe("mailto:hello@example.com");
    expect(parse({ linkType: "text_link", title: "Call", data: { text: "Call", url: "+44 20 7946 0958" } }).data?.data).toEqual({ text: "Call", url: "tel:+442079460958" });
  });

  it("tells what is wrong with a malformed e-mail or phone link (ADR 144)", () => {
    expect(messages({ linkType: "standard_url", title: "Mail", url: "mailto:a@example.com,b@example.com" })).toEqual({ url: LINK_MESSAGES.emailLinkInvalid });
    expect(messages({ linkType: "standard_url", title: "Mail", url: "mailto:a@example.com?bcc=c@example.com" })).toEqual({ url: LINK_MESSAGES.emailLinkInvalid });
    expect(messages({ linkType: "standard_url", title: "Call", url: "tel:4155550123" })).toEqual({ url: LINK_MESSAGES.phoneLinkInvalid });
    expect(messages({ linkType: "text_link", title: "Text", data: { text: "t", url: "sms:+1415555abcd" } })).toEqual({ "data.url": LINK_MESSAGES.textLinkInvalid });
    // A donation needs a web address, whatever the scheme.
    expect(messages({ linkType: "donation", title: "Tip", url: "mailto:a@example.com" })).toEqual({ url: LINK_MESSAGES.urlInvalid });
  });

  it("asks no URL of label, vcf, lead_magnet and promote links", () => {
    expect(parse({ linkType: "label", title: "Section" }).success).toBe(true);
    expect(parse({ linkType: "vcf", title: "Card", data: { name: "Ada" } }).success).toBe(true);
    expect(parse({ linkType: "lead_magnet", title: "Guide", data: { description: "Free" } }).success).toBe(true);
    expect(parse({ linkType: "promote_plinth", title: "Join" }).success).toBe(true);
  });

  it("requires a URL and Link Text for text_link", () => {
    expect(messages({ linkType: "text_link", title: "Read" })).toEqual({ "data.url": "URL is required", "data.text": "Link Text is required" });
  });

  it("requires a Description for lead_magnet; its File URL is optional but must be a URL or an uploaded file", () => {
    expect(messages({ linkType: "lead_magnet", title: "Guide" })).toEqual({ "data.description": "Description is required" });
    expect(messages({ linkType: "lead_magnet", title: "Guide", data: { description: "d", fileUrl: "ftp://x" } })).toEqual({ "data.fileUrl": "Please enter a valid URL" });
    expect(parse({ linkType: "lead_magnet", title: "Guide", data: { description: "d", fileUrl: "/media/ab/abababababababababababababababab.pdf" } }).success).toBe(true);
    for (const bad of ["/media/ab/file.pdf", "/media/../secret.pdf", "/media/ab/abababababababababababababababab.html", "//evil.example/x.pdf"]) {
      expect(messages({ linkType: "lead_magnet", title: "Guide", data: { description: "d", fileUrl: bad } }), bad).toEqual({ "data.fileUrl": "Please enter a valid URL" });
    }
  });

  it("requires a Full Name for vcf and checks its e-mail", () => {
    expect(messages({ linkType: "vcf", title: "Card" })).toEqual({ "data.name": "Full Name is required" });
    expect(messages({ linkType: "vcf", title: "Card", data: { name: "Ada", email: "nope" } })).toEqual({ "data.email": "Please enter a valid email address" });
  });

  it("keeps only the fields of the link's own type", () => {
    const r = LinkInputSchema.parse({ linkType: "donation", title: "Tip", url: "https://a.example", data: { message: "Hi", name: "x", description: "y" } });
    expect(r.data).toEqual({ message: "Hi" });
  });

  it("stores docs/product.md's url per type", () => {
    const ref = "https://plinth.example/?ref=abc";
    const s = (v: unknown) => storedUrlFor(LinkInputSchema.parse(v), ref);
    expect(s({ linkType: "label", title: "L" })).toBe("#");
    expect(s({ linkType: "vcf", title: "C", data: { name: "Ada" } })).toBe("#");
    expect(s({ linkType: "promote_plinth", title: "P" })).toBe(ref);
    expect(s({ linkType: "text_link", title: "T", url: "https://main.example", data: { text: "t", url: "https://own.example" } })).toBe("https://own.example");
    expect(s({ linkType: "text_link", title: "T", url: "https://main.example", data: { text: "t" } })).toBe("https://main.example");
    expect(s({ linkType: "standard_url", title: "S", url: "https://entered.example" })).toBe("https://entered.example");
  });

  it("refuses every hostile URL", () => {
    const hostile = [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      " javascript:alert(1)",
      "java\tscript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox(1)",
      "file:///etc/passwd",
      "//evil.example",
      "https://user:pass@evil.example",
      'https://a.example/"onmouseover="alert(1)',
      "https://a.example/<script>",
      "https://",
      `https://a.example/${"x".repeat(2100)}`,
    ];
    for (const url of hostile) {
      expect(isWebUrl(url), url).toBe(false);
      expect(parse({ linkType: "standard_url", title: "x", url }).success, url).toBe(false);
    }
    expect(isWebUrl("https://example.com/path?q=1#x")).toBe(true);
    expect(isWebUrl("http://example.com")).toBe(true);
  });

  it("refuses unknown link types and non-object data", () => {
    expect(parse({ linkType: "script", title: "x" }).success).toBe(false);
    expect(parse({ linkType: "label", title: "x", data: "<b>" }).success).toBe(false);
    expect(parse(null).success).toBe(false);
  });
});

describe("players, Music and Social (ADR 210-212)", () => {
  const YT = "https://youtu.be/dQw4w9WgXcQ";
  const spotify = { service: "spotify", url: "https://open.spotify.com/album/4uLU6hMCjMI75M1A2tKUQC" };

  it("keeps the player switch only on a standard link, and only on a recognised address", () => {
    expect(parse({ linkType: "standard_url", title: "V", url: YT, data: { player: "on" } }).data?.data).toEqual({ player: "on" });
    expect(messages({ linkType: "standard_url", title: "V", url: "https://example.com", data: { player: "on" } })).toEqual({ "data.player": LINK_MESSAGES.notPlayer });
    expect(parse({ linkType: "standard_url", title: "V", url: "https://example.com", data: { player: "off" } }).data?.data).toEqual({ player: "off" });
    expect(parse({ linkType: "donation", title: "V", url: YT, data: { player: "off", services: [spotify] } }).data?.data).toEqual({});
  });

  it("stores a Music link's services as JSON text and its first address as the url", () => {
    const r = parse({ linkType: "music", title: "Album", url: "https://evil.example", data: { services: [spotify] } }).data!;
    expect(r.url).toBe(spotify.url);
    expect(r.data).toEqual({ services: JSON.stringify([spotify]) });
  });

  it("builds a Social link's address from the platform and the cleaned handle, titled after the platform", () => {
    const r = parse({ linkType: "social", data: { platform: "github", handle: "https://github.com/octocat/" } }).data!;
    expect(r).toEqual({ linkType: "social", title: "GitHub", url: "https://github.com/octocat", data: { platform: "github", handle: "octocat" } });
    expect(messages({ linkType: "social", title: "", data: { platform: "github", handle: "" } })).toEqual({ "data.handle": "Please enter a username or handle" });
  });
});
