/**
 * The public page as rendered HTML (docs/product.md sections 2, 3, 4, 6 and 9): what a visitor's browser gets.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { LINK_TYPES } from "#core/link-types.ts";
import { PLATFORM_IDS, SOCIAL_PLATFORMS } from "#core/platforms.ts";
import { FONT_PAIRINGS, THEMES, FREE_THEME_IDS } from "#core/themes.ts";
import { contrastRatio as contrast } from "#core/color.ts";
import { INLINE_SCRIPT } from "#renderer/render.tsx";
import { qrFileName, vcard, vcfFileName } from "#renderer/components/vcard.ts";
import { all, byClass, byId, byTag, closest, hasClass, meta, normText, parseHtml, type El } from "./html.ts";
import { API_ORIGIN, assets, link, list, LITE, NOW, ORIGIN, PLUS, publishedDir, render, snapshot, social, TRIAL } from "./fixtures.ts";

const page = (...a: Parameters<typeof render>) => {
  const out = render(...a);
  return { ...out, doc: parseHtml(out.html) };
};
const main = (doc: El) => byTag(doc, "main")[0]!;
/** Visible link buttons and texts in the main area, in document order. */
const buttons = (doc: El) => byClass(main(doc), "btn");
const titles = (doc: El) => buttons(doc).map(normText);
const css = (doc: El) => byTag(doc, "style")[0]!.text;

describe("shared assets", () => {
  it("bundles the visitor script under 5 KB gzip with its integrity hash, and self-hosts the favicon and every font", () => {
    expect(assets.visitorScript.src).toMatch(/^\/_p\/visitor\.[0-9a-f]{10}\.js$/);
    const js = readFileSync(join(publishedDir, assets.visitorScript.src));
    expect(gzipSync(js).length).toBeLessThanOrEqual(5 * 1024);
    expect(assets.visitorScript.integrity).toBe(`sha384-${createHash("sha384").update(js).digest("base64")}`);
    expect(existsSync(join(publishedDir, assets.favicon))).toBe(true);
    for (const p of FONT_PAIRINGS) {
      for (const family of [p.heading, p.body]) {
        expect(assets.fonts[family], family).toHaveLength(2);
        for (const url of assets.fonts[family]!) {
          expect(url).toMatch(/^\/_p\/fonts\/.+\.woff2$/);
          expect(readFileSync(join(publishedDir, url)).subarray(0, 4).toString("latin1")).toBe("wOF2");
        }
      }
    }
  });
});

describe("link types", () => {
  const links = [
    link({ linkType: "standard_url", title: "My site", url: "https://example.com/site" }),
    link({ linkType: "label", title: "Section title", url: "#" }),
    link({ linkType: "text_link", title: "Text title", url: "https://example.com/fallback", data: { url: "https://example.com/essay", text: "Read my essay" } }),
    link({ linkType: "donation", title: "Tip jar", url: "https://example.com/tip", data: { message: "Thank you for the coffee!" } }),
    link({ linkType: "lead_magnet", title: "Free guide", url: "#", data: { description: "A one-page checklist", fileUrl: "https://files.example/g.pdf" } }),
    link({ linkType: "vcf", title: "Save my contact", url: "#", data: { name: "Alice Example", phone: "+1 555 0100", email: "alice@example.com", organization: "Studio" } }),
    link({ linkType: "music", title: "New single", url: "https://open.spotify.com/track/1", data: { services: JSON.stringify([{ service: "spotify", url: "https://open.spotify.com/track/1" }]) } }),
    link({ linkType: "social", title: "My channel", url: "https://www.youtube.com/@alice", data: { platform: "youtube", handle: "alice" } }),
    link({ linkType: "promote_plinth", title: "Try Plinth", url: "https://plinth.example/auth/signup?ref=abc" }),
    link({ linkType: "tip", title: "Tip me", url: "#", data: { currency: "usd", amounts: "500", custom: "off", min: "100", max: "1000" } }),
    link({ linkType: "paid_download", title: "My guide", url: "#", data: { currency: "usd", price: "900", file: "f1234567890" } }),
  ];
  const { doc, files } = page(snapshot({}, links));

  it("covers every stored type", () => {
    expect(links.map((l) => l.linkType).sort()).toEqual([...LINK_TYPES].sort());
  });

  it("draws links as buttons with their real href and rel=noopener", () => {
    for (const [title, href] of [["My site", "https://example.com/site"], ["Tip jar", "https://example.com/tip"], ["My channel", "https://www.youtube.com/@alice"], ["Try Plinth", "https://plinth.example/auth/signup?ref=abc"]]) {
      const a = buttons(doc).find((b) => normText(b) === title)!;
      expect(a.tag, title).toBe("a");
      expect(a.attrs.href).toBe(href);
      expect(a.attrs.rel).toBe("noopener");
      expect(a.attrs["data-link"]).toMatch(/^l\d+$/);
    }
  });

  it("draws a label as a section heading and a text link as text", () => {
    expect(byTag(main(doc), "h2").map(normText)).toContain("Section title");
    const text = all(main(doc), (e) => e.tag === "a" && normText(e) === "Read my essay")[0]!;
    expect(text.attrs.href).toBe("https://example.com/essay");
    expect(hasClass(text, "btn")).toBe(false);
  });

  it("shows a donation's message under its button", () => {
    const msg = byClass(main(doc), "msg")[0]!;
    expect(normText(msg)).toBe("Thank you for the coffee!");
  });

  it("opens the lead-magnet dialog from a button carrying the description", () => {
    const b = buttons(doc).find((e) => normText(e) === "Free guide")!;
    expect(b.tag).toBe("button");
    expect(b.attrs["data-act"]).toBe("lead");
    expect(b.attrs["data-desc"]).toBe("A one-page checklist");
    expect(byId(doc, "d-lead")?.tag).toBe("dialog");
    // The file's address is never in the page: the server e-mails it.
    expect(doc.text + JSON.stringify(doc.attrs)).not.toContain("files.example");
  });

  it("links a contact card to its .vcf file, written at publish time, and to a dialog with its details", () => {
    const vcfLink = links.find((l) => l.linkType === "vcf")!;
    const a = buttons(doc).find((e) => normText(e) === "Save my contact")!;
    expect(a.attrs.href).toBe(`/alice/${vcfFileName(vcfLink)}`);
    expect(a.attrs.download).toBe("");
    const dialog = byId(doc, a.attrs["data-dlg"]!)!;
    expect(dialog.tag).toBe("dialog");
    expect(normText(dialog)).toContain("Alice Example");
    expect(all(dialog, (e) => e.tag === "a").map((e) => e.attrs.href)).toEqual(expect.arrayContaining(["tel:+15550100", "mailto:alice@example.com", a.attrs.href]));
    const file = files.find((f) => f.path === vcfFileName(vcfLink))!;
    expect(String(file.content)).toBe(vcard(vcfLink));
    expect(String(file.content)).toContain("TEL;TYPE=CELL:+1 555 0100\r\n");
    expect(file.immutable).toBe(true);
  });

  it("opens the QR dialog for a qr_code link and draws an unknown type as a plain link", () => {
    const odd = [link({ linkType: "qr_code" as never, title: "Scan me" }), link({ linkType: "future_type" as never, title: "Newer type", url: "https://example.com/new" })];
    const d = page(snapshot({}, odd)).doc;
    expect(buttons(d).find((e) => normText(e) === "Scan me")?.attrs["data-act"]).toBe("qr");
    expect(buttons(d).find((e) => normText(e) === "Newer type")?.attrs.href).toBe("https://example.com/new");
  });

  it("writes the QR code of the page address, named by what it draws", () => {
    const name = qrFileName(`${ORIGIN}/alice`);
    expect(name).toMatch(/^qr-[0-9a-z]+\.svg$/);
    expect(name).not.toBe(qrFileName("https://other.example/alice"));
    expect(name).not.toBe(qrFileName(`${ORIGIN}/bob`));
    const qr = files.find((f) => f.path === name)!;
    expect(qr.immutable).toBe(true);
    const svg = String(typeof qr.content === "function" ? qr.content() : qr.content);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain(`${ORIGIN}/alice`);
    const dialog = byId(doc, "d-qr")!;
    expect(byTag(dialog, "img")[0]!.attrs.src).toBe(`/alice/${name}`);
    // The download keeps a name a person recognises.
    expect(byTag(dialog, "a")[0]!.attrs).toMatchObject({ href: `/alice/${name}`, download: "alice-qr.svg" });
  });
});

describe("order, visibility and lists", () => {
  it("puts the main button first and emphasises it", () => {
    const { doc } = page(snapshot({}, [link({ title: "First" }), link({ title: "Second" }), link({ title: "Main one", isMainButton: true })]));
    expect(titles(doc)).toEqual(["Main one", "First", "Second"]);
    expect(hasClass(buttons(doc)[0]!, "main")).toBe(true);
    expect(buttons(doc).filter((b) => hasClass(b, "main"))).toHaveLength(1);
  });

  it("leaves hidden links and links outside their schedule out of the HTML", () => {
    const { html, doc } = page(
      snapshot({}, [
        link({ title: "Shown" }),
        link({ title: "HiddenLinkX", isActive: false }),
        link({ title: "NotYetX", scheduleStartTime: "2026-06-01T12:00:01Z" }),
        link({ title: "EndedX", scheduleEndTime: "2026-06-01T12:00:00Z" }),
        link({ title: "Window", scheduleStartTime: "2026-06-01T11:00:00Z", scheduleEndTime: "2026-06-01T13:00:00Z" }),
      ]),
    );
    expect(titles(doc)).toEqual(["Shown", "Window"]);
    for (const t of ["HiddenLinkX", "NotYetX", "EndedX"]) expect(html).not.toContain(t);
  });

  it("groups list links under their list's heading, lists in their order, after the ungrouped links", () => {
    const s = snapshot(
      {},
      [link({ title: "In B", parentListId: "b", orderIndex: 0 }), link({ title: "Loose", orderIndex: 5 }), link({ title: "In A", parentListId: "a", orderIndex: 1 }), link({ title: "Lost list", parentListId: "gone", orderIndex: 9 })],
      [],
      [list("b", "List B", 2), list("a", "List A", 1), list("empty", "Empty list", 0)],
    );
    const { doc } = page(s);
    expect(titles(doc)).toEqual(["Loose", "Lost list", "In A", "In B"]);
    const sections = byClass(main(doc), "grp");
    expect(sections.map((g) => normText(byTag(g, "h2")[0]!))).toEqual(["List A", "List B"]);
    expect(closest(buttons(doc).find((b) => normText(b) === "In A")!, (e) => hasClass(e, "grp"))).toBe(sections[0]);
  });

  it("draws a thumbnail stored by Plinth or on https, and drops any other", () => {
    const { doc, html } = page(snapshot({}, [link({ title: "T1", thumbnailUrl: "/media/t/1.webp" }), link({ title: "T2", thumbnailUrl: "https://cdn.example/t.png" }), link({ title: "T3", thumbnailUrl: "http://plain.example/t.png" })]));
    const srcs = byClass(main(doc), "th").map((e) => e.attrs.src);
    expect(srcs).toEqual(["/media/t/1.webp", "https://cdn.example/t.png"]);
    expect(html).not.toContain("plain.example");
    // The CSP allows exactly the image origins the page uses.
    const csp = all(doc, (e) => e.tag === "meta" && e.attrs["http-equiv"] === "Content-Security-Policy")[0]!.attrs.content!;
    expect(csp).toContain("img-src 'self' data: https://cdn.example;");
  });
});

describe("profile header", () => {
  it("draws every picture style and shape", () => {
    for (const sub of ["rounded", "rounded_corners", "square"] as const) {
      const img = byClass(page(snapshot({ profilePictureStyle: "icon", profilePictureIconSubtype: sub })).doc, "pic")[0]!;
      expect(img.tag).toBe("img");
      expect(hasClass(img, `ic-${sub}`)).toBe(true);
      expect(img.attrs.alt).toBe("Alice");
    }
    const heights: Record<string, number> = {};
    for (const sub of ["portrait", "square", "landscape"] as const) {
      const img = byClass(page(snapshot({ profilePictureStyle: "full_width", profilePictureFullwidthSubtype: sub, profilePictureFullwidthUrl: "/media/wide.jpg" })).doc, "pic")[0]!;
      expect(hasClass(img, `fw-${sub}`)).toBe(true);
      expect(img.attrs.src).toBe("/media/wide.jpg");
      heights[sub] = Number(img.attrs.height);
    }
    // Full width without its own crop: the icon's square crop is drawn as an icon, never stretched.
    const noWide = byClass(page(snapshot({ profilePictureStyle: "full_width", profilePictureFullwidthUrl: null })).doc, "pic")[0]!;
    expect([hasClass(noWide, "ic"), hasClass(noWide, "fw"), noWide.attrs.src]).toEqual([true, false, "/media/alice.webp"]);
    // The icon layout never shows the full-width crop.
    const icon = byClass(page(snapshot({ profilePictureStyle: "icon", profilePictureFullwidthUrl: "/media/wide.jpg" })).doc, "pic")[0]!;
    expect(icon.attrs.src).toBe("/media/alice.webp");
    // docs/product.md section 9: portrait tall, square medium, landscape short.
    expect(heights.portrait).toBeGreaterThan(heights.square!);
    expect(heights.square).toBeGreaterThan(heights.landscape!);
    const ini = page(snapshot({ profilePictureStyle: "initials", initialsText: "ab", initialsBgColor: "#0f766e" }));
    expect(normText(byClass(ini.doc, "ini")[0]!)).toBe("AB");
    expect(css(ini.doc)).toContain("background:#0f766e");
    expect(byClass(page(snapshot({ profilePictureStyle: "initials", initialsText: "", displayName: "Jane van Dam" })).doc, "ini")[0]!.text).toBe("JV");
    expect(byClass(page(snapshot({ profilePictureStyle: "hidden" })).doc, "pic")).toHaveLength(0);
    // An icon without a picture falls back to initials.
    expect(byClass(page(snapshot({ profilePictureStyle: "icon", profilePictureUrl: null })).doc, "ini")).toHaveLength(1);
  });

  it("shows the display name (or the username), the bio, and long-form text for Plus", () => {
    const { doc } = page(snapshot({ displayName: "Alice Example", bio: "Designer", longFormText: "About me\nsecond line" }));
    expect(normText(byTag(doc, "h1")[0]!)).toBe("Alice Example");
    expect(normText(byClass(doc, "bio")[0]!)).toBe("Designer");
    expect(byTag(byClass(doc, "lf")[0]!, "p")[0]!.text).toBe("About me\nsecond line");
    expect(normText(byTag(page(snapshot({ displayName: "  " })).doc, "h1")[0]!)).toBe("alice");
  });
});

describe("social icons", () => {
  it("draws an icon link for each of the 18 platforms, in order, then the QR icon", () => {
    const socials = PLATFORM_IDS.map((p, i) => social(p, PLATFORM_IDS.length - i));
    const { doc } = page(snapshot({}, [], socials));
    const items = all(byClass(doc, "soc")[0]!, (e) => e.tag === "a" || e.tag === "button");
    expect(items.slice(0, -1).map((a) => a.attrs["aria-label"])).toEqual([...SOCIAL_PLATFORMS].reverse().map((p) => p.name));
    for (const a of items.slice(0, -1)) {
      expect(a.attrs.href).toMatch(/^https:\/\//);
      expect(a.attrs.rel).toBe("noopener");
      expect(byTag(a, "path")[0]!.attrs.d!.length).toBeGreaterThan(20);
    }
    expect(items.at(-1)!.attrs["aria-label"]).toBe("Show QR code");
    expect(items.at(-1)!.attrs["data-act"]).toBe("qr");
  });

  it("leaves hidden social links out and honours the QR icon setting", () => {
    const { doc } = page(snapshot({ qrCodeVisible: false }, [], [social("github", 1), social("x", 2, { isVisible: false })]));
    expect(all(doc, (e) => !!e.attrs["data-social"]).map((e) => e.attrs["data-social"])).toEqual(["github"]);
    expect(all(doc, (e) => e.attrs["aria-label"] === "Show QR code")).toHaveLength(0);
  });

  it("places the icons at the top, at the bottom or floating", () => {
    const where = (pos: "top" | "bottom" | "floating") => {
      const { doc } = page(snapshot({ socialLinksPosition: pos }, [link({ title: "A link" })], [social("github", 1)]));
      const soc = byClass(doc, "soc")[0]!;
      return { cls: soc.attrs.class, inHeader: !!closest(soc, (e) => e.tag === "header"), inMain: !!closest(soc, (e) => e.tag === "main") };
    };
    expect(where("top")).toEqual({ cls: "soc soc-top", inHeader: true, inMain: true });
    expect(where("bottom")).toEqual({ cls: "soc soc-bottom", inHeader: false, inMain: true });
    expect(where("floating")).toEqual({ cls: "soc soc-floating", inHeader: false, inMain: false });
  });
});

describe("appearance", () => {
  it("draws all 12 themes with readable text and buttons", () => {
    expect(THEMES).toHaveLength(12);
    for (const t of THEMES) {
      const c = css(page(snapshot({ selectedThemeName: t.id })).doc);
      expect(c, t.id).toContain(`background:${t.background};color:${t.text}`);
      expect(c).toMatch(new RegExp(`\\.btn\\{[^}]*background:${t.buttonBackground};color:(#[0-9a-f]{6})`));
      const btnText = c.match(/\.btn\{[^}]*color:(#[0-9a-f]{6})/)![1]!;
      // Button labels are 19px bold: large text, readable at 3:1 (WCAG AA).
      expect(contrast(btnText, t.buttonBackground), t.id).toBeGreaterThanOrEqual(3);
      expect(contrast(t.text, t.backgroundBase), t.id).toBeGreaterThanOrEqual(4.5);
      expect(contrast(t.mutedText, t.backgroundBase), t.id).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("applies the owner's page, button and border colours, keeping text readable on them", () => {
    const c = css(page(snapshot({ customPageBackgroundColor: "#FDE68A", customButtonBackgroundColor: "#fef9c3", customButtonBorderColor: "#111111" })).doc);
    expect(c).toContain("body{margin:0;min-height:100vh;background:#fde68a;color:#111827");
    const [, label] = c.match(/\.btn\{[^}]*background:#fef9c3;color:(#[0-9a-f]{6});border:2px solid #111111/)!;
    expect(contrast(label!, "#fef9c3")).toBeGreaterThanOrEqual(4.5);
    const dark = css(page(snapshot({ selectedThemeName: "minimalist-dark", customPageBackgroundColor: "#ffffff" })).doc);
    expect(dark).toMatch(/body\{[^}]*background:#ffffff;color:#111827/);
    // Anything but #rrggbb is ignored: colours go into CSS.
    const bad = css(page(snapshot({ customPageBackgroundColor: "red;}body{display:none" })).doc);
    expect(bad).not.toContain("red;}");
    expect(bad).toContain(`background:${THEMES[0].background};`);
  });

  it("shapes buttons as box, rounded or pill", () => {
    const radius = (s: "box" | "rounded" | "pill") => css(page(snapshot({ buttonShapeStyle: s })).doc).match(/\.btn\{[^}]*border-radius:([^;]+);/)![1];
    expect([radius("box"), radius("rounded"), radius("pill")]).toEqual(["0", "12px", "999px"]);
  });

  it("uses each of the 5 font pairings from self-hosted files only", () => {
    expect(FONT_PAIRINGS).toHaveLength(5);
    for (const p of FONT_PAIRINGS) {
      const c = css(page(snapshot({ customFontPairingName: p.id })).doc);
      const urls = [...c.matchAll(/url\(([^)]+)\)/g)].map((m) => m[1]!);
      expect(urls.length, p.id).toBeGreaterThanOrEqual(2);
      for (const u of urls) expect(u.startsWith("/_p/fonts/")).toBe(true);
      expect(c).toContain(`font-family:"${p.heading}"`);
      expect(c).toContain(`"${p.body}",system-ui`);
    }
    expect(css(page(snapshot()).doc)).not.toContain("@font-face");
  });
});

describe("footer", () => {
  it("offers Share This Page, Report and Cookie Settings, and the branding unless removed on Plus", () => {
    const { doc } = page(snapshot());
    const footer = byTag(doc, "footer")[0]!;
    expect(byTag(footer, "button").map(normText)).toEqual(["Share This Page", "Report", "Cookie Settings"]);
    expect(all(footer, (e) => e.tag === "a" && normText(e) === "Powered by Plinth")[0]!.attrs.href).toBe(`${ORIGIN}/`);
    expect(normText(page(snapshot({ removeBranding: true })).doc)).not.toContain("Powered by");
    expect(normText(page(snapshot({ hidePlatformBranding: true })).doc)).not.toContain("Powered by");
  });

  it("has the cookie banner with Customize, Decline Non-Essential, Accept All, the preferences and a link to /privacy", () => {
    const { doc } = page(snapshot());
    const banner = byId(doc, "ck")!;
    expect(byTag(banner, "button").map(normText)).toEqual(["Save Preferences", "Customize", "Decline Non-Essential", "Accept All"]);
    expect(byTag(banner, "a")[0]!.attrs.href).toBe(`${ORIGIN}/privacy`);
    expect(byTag(banner, "input").map((e) => e.attrs.name)).toEqual(["essential", "analytics", "marketing"]);
    expect(byId(doc, "ck-p")!.attrs.hidden).toBe("");
  });

  it("has a share dialog: the page's address to copy, plain share links of the main networks, and the page's QR code", () => {
    const { doc } = page(snapshot({ displayName: "Ada & Co", seoTitle: "" }));
    const dialog = byId(doc, "d-share")!;
    expect(dialog.tag).toBe("dialog");
    expect(normText(byId(dialog, "d-share-t")!)).toBe("Share This Page");
    expect(byId(dialog, "sh-url")!.attrs).toMatchObject({ readonly: "", value: `${ORIGIN}/alice` });
    expect(byTag(dialog, "button").map(normText)).toEqual(["Copy Link", "Close"]);
    const u = encodeURIComponent(`${ORIGIN}/alice`);
    const links = byTag(byClass(dialog, "net")[0]!, "a");
    expect(links.map((a) => [normText(a), a.attrs.href])).toEqual([
      ["X", `https://x.com/intent/post?url=${u}&text=Ada%20%26%20Co`],
      ["Facebook", `https://www.facebook.com/sharer/sharer.php?u=${u}`],
      ["LinkedIn", `https://www.linkedin.com/sharing/share-offsite/?url=${u}`],
      ["WhatsApp", `https://wa.me/?text=Ada%20%26%20Co%20${u}`],
      ["Telegram", `https://t.me/share/url?url=${u}&text=Ada%20%26%20Co`],
      ["Email", `mailto:?subject=Ada%20%26%20Co&body=${u}`],
    ]);
    for (const a of links) expect([a.attrs.target, a.attrs.rel]).toEqual(["_blank", "noopener"]);
    // The share text is the page's title: the SEO title when there is one. A lone surrogate cannot break it.
    expect(byTag(byId(page(snapshot({ seoTitle: "Talks" })).doc, "d-share")!, "a")[0]!.attrs.href).toContain("&text=Talks");
    expect(byTag(byId(page(snapshot({ displayName: "a\ud800b" })).doc, "d-share")!, "a")[0]!.attrs.href).toContain("&text=a%EF%BF%BDb");
    const qr = byTag(dialog, "img")[0]!;
    expect(qr.attrs.src).toMatch(/^\/alice\/.+\.svg$/);
    expect(qr.attrs.loading).toBe("lazy");
  });

  it("asks for a report reason from docs/product.md's list", () => {
    const select = byId(byTag(parseHtml(render(snapshot()).html), "body")[0]!, "rp-reason")!;
    expect(byTag(select, "option").map((o) => o.attrs.value)).toEqual(["", "spam", "harassment", "inappropriate", "copyright", "impersonation", "other"]);
  });
});

describe("Lite without an active trial", () => {
  const links = [
    link({ title: "Main", isMainButton: true, thumbnailUrl: "/media/t.webp" }),
    ...Array.from({ length: 8 }, (_, i) => link({ title: `Plain ${i}` })),
    link({ linkType: "lead_magnet", title: "Magnet", data: { description: "d" } }),
    link({ linkType: "vcf", title: "Card", data: { name: "n" } }),
    link({ linkType: "donation", title: "Donate", url: "https://example.com/d" }),
  ];
  const socials = PLATFORM_IDS.slice(0, 6).map((p, i) => social(p, i + 1));
  const s = snapshot(
    { removeBranding: true, longFormText: "LONGFORM", seoTitle: "SEO TITLE", seoDescription: "SEO DESC", customFontPairingName: "elegant-serif", selectedThemeName: "neon-dark" },
    links,
    socials,
  );

  it("shows at most 7 links and 4 social icons, the branding, and no Plus-only feature", () => {
    const { doc, html } = page(s, LITE);
    expect(titles(doc)).toEqual(["Main", "Plain 0", "Plain 1", "Plain 2", "Plain 3", "Plain 4", "Plain 5"]);
    expect(all(doc, (e) => !!e.attrs["data-social"])).toHaveLength(4);
    expect(normText(doc)).toContain("Powered by Plinth");
    expect(byClass(doc, "main")).toHaveLength(0);
    expect(byClass(doc, "th")).toHaveLength(0);
    for (const t of ["LONGFORM", "SEO TITLE", "SEO DESC", "Magnet", "@font-face", "#0a0a0a"]) expect(html, t).not.toContain(t);
    expect(css(doc)).toContain(`background:${THEMES[0].background}`);
    expect(FREE_THEME_IDS).toContain("minimalist-light");
  });

  it("keeps donation links, a Lite link type (docs/product.md section 6)", () => {
    const { doc } = page(snapshot({}, [link({ linkType: "donation", title: "Donate", url: "https://example.com/d" })]), LITE);
    expect(titles(doc)).toEqual(["Donate"]);
  });

  it("shows everything during a trial, as for Plus", () => {
    const { doc, html } = page(s, TRIAL);
    expect(titles(doc)).toHaveLength(12);
    expect(all(doc, (e) => !!e.attrs["data-social"])).toHaveLength(6);
    for (const t of ["LONGFORM", "SEO TITLE", "Magnet", "@font-face"]) expect(html).toContain(t);
    expect(normText(doc)).not.toContain("Powered by");
  });
});

describe("head: SEO, security and scripts", () => {
  const s = snapshot({ displayName: "Alice Example", bio: "My bio", seoTitle: "Alice | Designer", seoDescription: "Portfolio and links of Alice" }, [], [social("github", 1), social("whatsapp", 2)]);
  const { doc, html } = page(s);

  it("writes the title, description, canonical URL, Open Graph and Twitter tags with the picture", () => {
    expect(normText(byTag(doc, "title")[0]!)).toBe("Alice | Designer");
    expect(meta(doc, "description")).toBe("Portfolio and links of Alice");
    expect(all(doc, (e) => e.tag === "link" && e.attrs.rel === "canonical")[0]!.attrs.href).toBe(`${ORIGIN}/alice`);
    expect(meta(doc, "og:title")).toBe("Alice | Designer");
    expect(meta(doc, "og:description")).toBe("Portfolio and links of Alice");
    expect(meta(doc, "og:url")).toBe(`${ORIGIN}/alice`);
    expect(meta(doc, "og:type")).toBe("profile");
    expect(meta(doc, "og:image")).toBe(`${ORIGIN}/media/alice.webp`);
    expect(meta(doc, "twitter:card")).toBe("summary_large_image");
    expect(meta(doc, "twitter:image")).toBe(`${ORIGIN}/media/alice.webp`);
    expect(meta(doc, "robots")).toBeUndefined();
    expect(byTag(doc, "html")[0]!.attrs.lang).toBe("en");
  });

  it("falls back to the bio, then to a sentence, when there is no SEO description", () => {
    expect(meta(page(snapshot({ bio: "Just a bio" })).doc, "description")).toBe("Just a bio");
    expect(meta(page(snapshot({ bio: "" })).doc, "description")).toBe("Alice on Plinth");
    expect(meta(page(snapshot({ profilePictureStyle: "initials" })).doc, "twitter:card")).toBe("summary");
  });

  it("describes the page with JSON-LD for a profile page", () => {
    const ld = JSON.parse(all(doc, (e) => e.tag === "script" && e.attrs.type === "application/ld+json")[0]!.text);
    expect(ld).toMatchObject({
      "@context": "https://schema.org",
      "@type": "ProfilePage",
      url: `${ORIGIN}/alice`,
      mainEntity: { "@type": "Person", name: "Alice Example", alternateName: "@alice", image: `${ORIGIN}/media/alice.webp`, sameAs: ["https://github.com/handle1", "https://wa.me/handle2"] },
    });
  });

  it("has a CSP with the hashes of its inline script and style, and loads the visitor script with its integrity", () => {
    const csp = all(doc, (e) => e.tag === "meta" && e.attrs["http-equiv"] === "Content-Security-Policy")[0]!.attrs.content!;
    const hash = (t: string) => `'sha256-${createHash("sha256").update(t).digest("base64")}'`;
    const directives = Object.fromEntries(csp.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1).join(" ")]));
    expect(directives).toEqual({
      "default-src": "'none'",
      "style-src": hash(css(doc)),
      "script-src": `'self' ${hash(INLINE_SCRIPT)}`,
      "connect-src": API_ORIGIN,
      "img-src": "'self' data:",
      "font-src": "'self'",
      "base-uri": "'none'",
      "form-action": "'none'",
    });
    const scripts = byTag(doc, "script");
    expect(scripts.filter((e) => !e.attrs.type && !e.attrs.src).map((e) => e.text)).toEqual([INLINE_SCRIPT]);
    const ext = scripts.find((e) => e.attrs.src)!;
    expect(ext.attrs).toMatchObject({ src: assets.visitorScript.src, integrity: assets.visitorScript.integrity, defer: "" });
    expect(html).not.toContain("unsafe-inline");
    // The CSP allows no style attribute, so none is emitted.
    expect(all(doc, (e) => "style" in e.attrs)).toHaveLength(0);
  });

  it("writes its JSON-LD and config as JSON.stringify does, made safe inside <script>, whatever the text", () => {
    const safe = (v: unknown) =>
      JSON.stringify(v).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
    const texts = ["plain", 'q"uote', "back\\slash", "\u0000\u0001\u001f", "\ud800 lone", "tail \udfff", "🙂 pair", "</script><b>", "a & b", "\u2028\u2029", "é漢字"];
    for (const t of texts) {
      const s = snapshot({ displayName: t, bio: t, seoTitle: t, seoDescription: t, profilePictureUrl: "https://img.example/p.png" }, [], [social("github", 1, { url: `https://github.com/${t}` })]);
      const { html } = render(s, PLUS);
      const scripts = [...html.matchAll(/<script type="application\/(?:ld\+)?json"[^>]*>([^<]*)<\/script>/g)].map((m) => m[1]);
      const name = t.trim() || "alice";
      const title = t.trim() || name;
      const description = t.trim() || `${name} on Plinth`;
      const url = `${ORIGIN}/alice`;
      expect(scripts, JSON.stringify(t)).toEqual([
        safe({
          "@context": "https://schema.org",
          "@type": "ProfilePage",
          url,
          name: title,
          mainEntity: { "@type": "Person", name, alternateName: "@alice", description, url, image: "https://img.example/p.png", sameAs: [`https://github.com/${t}`] },
        }),
        safe({ username: "alice", apiOrigin: API_ORIGIN, url, title, preview: false }),
      ]);
    }
  });

  it("configures the visitor script with the API origin and the page address", () => {
    const config = JSON.parse(byId(doc, "plinth-config")!.text);
    expect(config).toEqual({ username: "alice", apiOrigin: API_ORIGIN, url: `${ORIGIN}/alice`, title: "Alice | Designer", preview: false });
  });

  it("marks a preview noindex, shows the preview banner and sends no analytics", () => {
    const pv = page(s, PLUS, "preview").doc;
    expect(meta(pv, "robots")).toBe("noindex,nofollow");
    expect(normText(byClass(pv, "pv")[0]!)).toContain("Preview");
    expect(JSON.parse(byId(pv, "plinth-config")!.text).preview).toBe(true);
    expect(byClass(doc, "pv")).toHaveLength(0);
  });
});

describe("first round trip", () => {
  it("keeps a 20-link page with a picture and 6 social icons at or under 14 KB gzip", () => {
    const links = Array.from({ length: 20 }, (_, i) => link({ title: `My link number ${i} to something I made`, url: `https://example.com/path/${i}` }));
    const socials = PLATFORM_IDS.slice(0, 6).map((p, i) => social(p, i));
    const { html } = render(snapshot({ customFontPairingName: "modern-sans" }, links, socials), PLUS, "published", NOW);
    expect(gzipSync(html).length).toBeLessThanOrEqual(14 * 1024);
  });
});
