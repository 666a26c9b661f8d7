/**
 * Escaping and URL safety against a corpus of hostile inputs, in every field a page draws. The
 * rendered HTML is parsed the way a browser parses it, so an injected element, attribute or script
 * would show up as one.
 */
import { describe, expect, it } from "vitest";
import type { PageLink, PageSnapshot } from "#core/model.ts";
import { PLATFORM_IDS } from "#core/platforms.ts";
import { SocialAddSchema } from "#core/schemas/social.ts";
import { INLINE_SCRIPT } from "#renderer/render.tsx";
import { isMailable, linkHref, safeHref, safeSrc } from "#renderer/components/safe-href.ts";
import { vcard } from "#renderer/components/vcard.ts";
import { qrSvg } from "#renderer/page-files.ts";
import { all, byClass, byId, byTag, normText, parseHtml, type El } from "./html.ts";
import { assets, LITE, link, list, PLUS, render, snapshot, TRIAL } from "./fixtures.ts";
import { ODD_URLS } from "#tests/support/odd-urls.ts";

const HOSTILE_TEXT = [
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "'><svg onload=alert(1)>",
  "</style><script>alert(1)</script>",
  "</script><script>alert(1)</script>",
  "<!--<script>alert(1)//-->",
  "<iframe src=javascript:alert(1)>",
  "&lt;script&gt;alert(1)&lt;/script&gt;",
  "\u2028\u2029</script>",
  "\u202e<b>reversed</b>",
  "{{constructor.constructor('alert(1)')()}}",
  "a\u0000b",
  "<style>body{display:none}</style>",
  "x".repeat(5000),
];

const HOSTILE_URLS = [
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  " javascript:alert(1)",
  "java\tscript:alert(1)",
  "java\nscript:alert(1)",
  "\u0000javascript:alert(1)",
  "&#106;avascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "data:image/svg+xml;base64,PHN2Zz4=",
  "vbscript:msgbox(1)",
  "file:///etc/passwd",
  "//evil.example/x",
  "/\\evil.example",
  "https://x;script-src *;a.example/",
  "https:\\\\evil.example",
  "mailto:",
  "",
];
/** Valid URLs that carry markup: accepted as links, and must come out escaped. */
const MARKUP_URLS = ["https://evil.example/\"><script>alert(1)</script>", "https://evil.example/'onmouseover='alert(1)"];

/** A page with `t` in every text field and `u` in every URL field, on every link type. */
function hostilePage(t: string, u: string): PageSnapshot {
  const links: PageLink[] = [
    link({ title: t, url: u, isMainButton: true, thumbnailUrl: u }),
    link({ linkType: "label", title: t, url: u }),
    link({ linkType: "text_link", title: t, url: u, data: { url: u, text: t } }),
    link({ linkType: "donation", title: t, url: u, data: { message: t } }),
    link({ linkType: "lead_magnet", title: t, url: u, data: { description: t, fileUrl: u } }),
    link({ linkType: "vcf", title: t, url: u, data: { name: t, phone: t, email: t, organization: t } }),
    link({ linkType: "music", title: t, url: u, parentListId: "g" }),
    link({ linkType: "social", title: t, url: u, parentListId: "g" }),
    link({ linkType: "promote_plinth", title: t, url: u }),
    link({ title: "Safe neighbour", url: "https://ok.example/" }),
  ];
  return snapshot(
    { displayName: t, bio: t, seoTitle: t, seoDescription: t, longFormText: t, initialsText: t, profilePictureUrl: u, profilePictureStyle: "icon" },
    links,
    PLATFORM_IDS.slice(0, 5).map((platform, i) => ({ id: `s${i}`, platform, url: u, displayOrder: i, isVisible: true })),
    [list("g", t, 0)],
  );
}

const ALLOWED_TAGS = new Set([
  "html", "head", "body", "meta", "title", "link", "style", "script", "div", "main", "header", "footer", "section", "h1", "h2", "p",
  "ul", "li", "a", "span", "img", "svg", "path", "button", "dialog", "form", "label", "select", "option", "textarea", "input",
  "fieldset", "legend", "small", "dl", "dt", "dd", "b", "picture",
]);

function assertSafe(doc: El, where: string) {
  for (const e of all(doc)) {
    expect(ALLOWED_TAGS.has(e.tag), `${where}: unexpected <${e.tag}>`).toBe(true);
    for (const [name, value] of Object.entries(e.attrs)) {
      expect(name.startsWith("on"), `${where}: event handler ${name}`).toBe(false);
      expect(name, where).not.toBe("style");
      if (name === "href" || name === "src" || name === "action" || name === "xlink:href") {
        const ok =
          /^https?:\/\/[^/\\]/i.test(value) ||
          /^(mailto|tel|sms):[^/\\]/i.test(value) ||
          /^\/(alice|_p|media)\//.test(value) ||
          (value === "#" && e.attrs.hidden !== undefined);
        expect(ok, `${where}: <${e.tag} ${name}="${value}">`).toBe(true);
        expect(/[\u0000-\u0020]/.test(value), `${where}: control or space in ${value}`).toBe(false);
      }
    }
  }
  const scripts = byTag(doc, "script");
  expect(scripts.map((s) => s.attrs.type ?? (s.attrs.src ? "src" : "inline")), where).toEqual(["inline", "application/ld+json", "application/json", "src"]);
  expect(scripts[0]!.text).toBe(INLINE_SCRIPT);
  expect(scripts[3]!.attrs.src).toBe(assets.visitorScript.src);
  for (const s of scripts.slice(1, 3)) expect(() => JSON.parse(s.text), where).not.toThrow();
  expect(byTag(doc, "style"), where).toHaveLength(1);
  expect(all(doc, (e) => e.tag === "meta" && !!e.attrs["http-equiv"]).map((e) => e.attrs["http-equiv"]), where).toEqual(["Content-Security-Policy"]);
}

describe("hostile input", () => {
  it("never becomes markup, script, style or an unsafe link, in any field, on any plan", async () => {
    const urls = [...HOSTILE_URLS, ...MARKUP_URLS];
    for (const [ti, t] of HOSTILE_TEXT.entries()) {
      // A minute of rendering in one go would starve the test runner's own messages to its worker.
      await new Promise((r) => setImmediate(r));
      for (const [ui, u] of urls.entries()) {
        // Every pair under Plus (every feature drawn); Lite and trial on a rotating share of pairs.
        const plans = [PLUS, ...((ti + ui) % 4 === 0 ? [LITE, TRIAL] : [])];
        for (const plan of plans) {
          const where = `${JSON.stringify(t.slice(0, 30))} / ${JSON.stringify(u)} / ${plan.planType}`;
          const { html } = render(hostilePage(t, u), plan);
          const doc = parseHtml(html);
          assertSafe(doc, where);
          expect(byTag(doc, "style")[0]!.text).not.toContain(t.slice(0, 10));
        }
      }
    }
  }, 120_000);

  it("shows hostile text as text, exactly", () => {
    for (const t of HOSTILE_TEXT.filter((x) => !x.includes("\u0000"))) {
      const doc = parseHtml(render(hostilePage(t, "https://ok.example/"), PLUS).html);
      expect(byTag(doc, "h1")[0]!.text).toBe(t.trim());
      expect(byTag(doc, "title")[0]!.text).toBe(t.trim());
      expect(byClass(doc, "btn")[0]!.text).toBe(t);
      const ld = JSON.parse(all(doc, (e) => e.attrs.type === "application/ld+json")[0]!.text);
      expect(ld.mainEntity.name).toBe(t.trim());
      expect(JSON.parse(byId(doc, "plinth-config")!.text).title).toBe(t.trim());
    }
  });

  it("keeps the safe neighbours of refused links", () => {
    const doc = parseHtml(render(hostilePage("x", "javascript:alert(1)"), PLUS).html);
    const hrefs = all(doc, (e) => e.tag === "a" && !!e.attrs.href?.startsWith("https://ok.example")).map((e) => normText(e));
    expect(hrefs).toEqual(["Safe neighbour"]);
  });

  it("escapes a hostile username in paths, JSON and the QR code", () => {
    const s = snapshot({ username: '"><script>alert(1)</script>' }, [link({ linkType: "vcf", title: "Card", data: { name: "n" } })]);
    const { html, files } = render(s, PLUS);
    const doc = parseHtml(html);
    expect(byTag(doc, "script")).toHaveLength(4);
    for (const e of all(doc, (x) => !!x.attrs.href && x.attrs.href.startsWith("/"))) expect(e.attrs.href).toMatch(/^\/(%22%3E%3Cscript%3Ealert\(1\)%3C%2Fscript%3E|_p|media)\//);
    const qr = files.find((f) => /^qr-[0-9a-z]+\.svg$/.test(f.path))!;
    expect(String((qr.content as () => string)())).not.toContain("<script>");
  });
});

describe("URL rules", () => {
  it("makes links only of http(s) URLs; contact cards add mailto links of plain addresses", () => {
    for (const u of ["https://example.com/a?b=c#d", "http://example.com", "HTTPS://EXAMPLE.COM"]) expect(safeHref(u), u).toBe(u);
    for (const u of [...HOSTILE_URLS, "mailto:a@example.com", "tel:+15550100"]) expect(safeHref(u), JSON.stringify(u)).toBeNull();
    expect(safeHref("  https://example.com  ")).toBe("https://example.com");
    expect(isMailable("a@example.com")).toBe(true);
    for (const e of ["", "a b@example.com", "a@example.com\nBcc: x", "/a@example.com", "\\a@x", "a\u0000@x"]) expect(isMailable(e), JSON.stringify(e)).toBe(false);
  });

  it("links buttons and text links to one e-mail address or E.164 number, without noopener or a new window; nothing else (ADR 144)", () => {
    const doc = parseHtml(
      render(
        snapshot({}, [
          link({ id: "m", title: "E-mail me", url: "mailto:hello@example.com?subject=Hi%20there" }),
          link({ id: "p", title: "Call me", url: "tel:+14155550123" }),
          link({ id: "t", linkType: "text_link", title: "Text", url: "#", data: { url: "sms:+14155550123", text: "Text me" } }),
          link({ id: "d", linkType: "donation", title: "Tip", url: "mailto:hello@example.com" }),
          link({ id: "x", title: "Two", url: "mailto:a@example.com?bcc=b@example.com" }),
        ]),
        PLUS,
      ).html,
    );
    const anchors = all(doc, (e) => e.tag === "a" && !!e.attrs["data-link"]);
    expect(anchors.map((a) => [a.attrs["data-link"], a.attrs.href, a.attrs.rel, a.attrs.target])).toEqual([
      ["m", "mailto:hello@example.com?subject=Hi%20there", undefined, undefined],
      ["p", "tel:+14155550123", undefined, undefined],
      ["t", "sms:+14155550123", undefined, undefined],
    ]);
    expect(linkHref({ linkType: "standard_url", url: " https://example.com ", data: {} })).toBe("https://example.com");
    for (const u of [...HOSTILE_URLS, "mailto:a@example.com,b@example.com", "tel:4155550123"]) expect(linkHref({ linkType: "standard_url", url: u, data: {} }), JSON.stringify(u)).toBeNull();
  });

  it("loads images only from /media/ or over https, from a plain host name", () => {
    expect(safeSrc("/media/ab/c.webp")).toBe("/media/ab/c.webp");
    expect(safeSrc("https://cdn.example/p.png")).toBe("https://cdn.example/p.png");
    for (const u of [...HOSTILE_URLS, "http://cdn.example/p.png", "/api/auth/logout", "/media/../api/x", "/media//evil", 'https://a";b.example/']) expect(safeSrc(u), JSON.stringify(u)).toBeNull();
  });

  it("draws every social link the schema accepts, whatever handle was typed (ADR 096)", () => {
    const handles = [...ODD_URLS, ...HOSTILE_TEXT, "ada", "@ada", "josé", "a/b", "%2e%2e", "..", "a?b", "+15550100", "x".repeat(100)];
    let drawn = 0;
    for (const handle of handles) {
      const socials = [];
      for (const [i, platform] of PLATFORM_IDS.entries()) {
        const r = SocialAddSchema.safeParse({ platform, handle });
        if (r.success) socials.push({ id: `s${i}`, platform: r.data.platform, url: r.data.url, displayOrder: i, isVisible: true });
      }
      const doc = parseHtml(render(snapshot({}, [], socials), PLUS).html);
      const hrefs = Object.fromEntries(all(doc, (e) => !!e.attrs["data-social"]).map((e) => [e.attrs["data-social"], e.attrs.href]));
      expect(hrefs, JSON.stringify(handle)).toEqual(Object.fromEntries(socials.map((x) => [x.platform, x.url])));
      drawn += socials.length;
    }
    expect(drawn).toBeGreaterThan(100);
  });
});

describe("files written at publish time", () => {
  it("keeps hostile contact fields inside their vCard properties", () => {
    for (const t of ["a\r\nEMAIL:evil@example.com", "a\nEND:VCARD\nBEGIN:VCARD", "x;y,z\\", "\u0000\u001bq"]) {
      const card = vcard(link({ linkType: "vcf", title: "T", data: { name: t, phone: t, email: t, organization: t } }));
      const lines = card.split("\r\n").filter(Boolean);
      expect(lines[0]).toBe("BEGIN:VCARD");
      expect(lines.at(-1)).toBe("END:VCARD");
      expect(lines.map((l) => l.split(/[:;]/)[0])).toEqual(["BEGIN", "VERSION", "FN", "N", "ORG", "TEL", "EMAIL", "END"]);
      expect(card).not.toMatch(/[\u0000-\u0009\u000b\u000c\u000e-\u001f]/);
    }
  });

  it("escapes the address inside the QR code's file", () => {
    const svg = qrSvg('https://plinth.example/a"><script>');
    expect(svg).not.toContain("<script>");
    expect(svg).toContain("&quot;&gt;&lt;script&gt;");
  });
});
