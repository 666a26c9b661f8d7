import { createHash } from "node:crypto";
import { mkdtempSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LINK_TYPES } from "#core/link-types.ts";
import { PLATFORM_IDS } from "#core/platforms.ts";
import { THEME_IDS, FONT_PAIRING_IDS } from "#core/themes.ts";
import { ensureSharedAssets } from "#renderer/assets.ts";
import { renderPage } from "#renderer/render.tsx";
import type { RenderInput } from "#renderer/types.ts";
import { LITE, link, NOW, PLUS, snapshot, social } from "./fixtures.ts";

const dir = mkdtempSync(join(tmpdir(), "plinth-pub-"));
const assets = ensureSharedAssets(dir);
const input = (s: RenderInput["snapshot"], plan = PLUS, mode: RenderInput["mode"] = "published"): RenderInput => ({
  snapshot: s, plan, now: NOW, origin: "https://plinth.example", apiOrigin: "https://api.plinth.example", mode, assets,
});
const render = (...a: Parameters<typeof input>) => renderPage(input(...a));

describe("shared assets", () => {
  it("bundles the visitor script under 5 KB gzip and copies fonts, idempotently", () => {
    expect(assets.visitorScript).toMatch(/^\/_p\/visitor\.[0-9a-f]{10}\.js$/);
    const js = readFileSync(join(dir, assets.visitorScript));
    expect(gzipSync(js).length).toBeLessThanOrEqual(5 * 1024);
    expect(assets.fonts["Inter"]?.length).toBe(2);
    for (const url of Object.values(assets.fonts).flat()) expect(existsSync(join(dir, url))).toBe(true);
    expect(ensureSharedAssets(dir)).toBe(assets);
  });
});

describe("renderPage", () => {
  it("renders every link type", () => {
    const links = LINK_TYPES.map((t) => link({ linkType: t, title: `T-${t}`, data: { message: "Thanks!", text: "Read more", description: "Free guide", name: "Al", phone: "+1 555" } }));
    const { html, files } = render(snapshot({}, links));
    for (const t of LINK_TYPES) if (t !== "text_link") expect(html).toContain(`T-${t}`);
    expect(html).toContain(">Read more</a>");
    expect(html).toContain("Thanks!");
    expect(html).toMatch(/data-act="lead"/);
    expect(files.map((f) => f.path)).toContain("qr.svg");
    const vcf = files.find((f) => f.path.endsWith(".vcf"));
    expect(String(vcf?.content)).toContain("TEL;TYPE=CELL:+1 555");
    expect(html).toContain(`href="/alice/${vcf?.path}"`);
    expect(html).toContain('src="/alice/qr.svg"');
  });

  it("puts the main button first, hides inactive and out-of-schedule links", () => {
    const links = [link({ title: "First" }), link({ title: "Main", isMainButton: true }), link({ title: "Off", isActive: false }),
      link({ title: "Later", scheduleStartTime: "2026-07-01T00:00:00Z" }), link({ title: "Gone", scheduleEndTime: "2026-05-01T00:00:00Z" })];
    const { html } = render(snapshot({}, links));
    expect(html.indexOf("Main")).toBeLessThan(html.indexOf("First"));
    expect(html).toMatch(/class="btn main"/);
    for (const t of ["Off", "Later", "Gone"]) expect(html).not.toContain(`>${t}<`);
  });

  it("applies Lite caps: 7 links, 4 social, branding, no Plus features", () => {
    const links = Array.from({ length: 10 }, (_, i) => link({ title: `L${i}` }));
    links.push(link({ linkType: "lead_magnet", title: "Magnet" }));
    const socials = PLATFORM_IDS.slice(0, 6).map((p, i) => social(p, i));
    const s = snapshot({ removeBranding: true, longFormText: "LONGFORM", seoTitle: "SEO!" }, links, socials);
    const { html } = render(s, LITE);
    expect(html.match(/class="btn"/g)?.length).toBe(7);
    expect(html.match(/data-social=/g)?.length).toBe(4);
    expect(html).toContain("Powered by");
    expect(html).not.toContain("LONGFORM");
    expect(html).not.toContain("Magnet");
    expect(html).not.toContain("SEO!");
    const plus = render(s, PLUS).html;
    expect(plus).not.toContain("Powered by");
    expect(plus).toContain("LONGFORM");
    expect(plus).toContain("<title>SEO!</title>");
  });

  it("renders every picture style, theme, button style, position and font", () => {
    const seen = new Set<string>();
    for (const style of ["icon", "full_width", "initials", "hidden"] as const)
      for (const sub of ["rounded", "rounded_corners", "square"] as const) {
        const html = render(snapshot({ profilePictureStyle: style, profilePictureIconSubtype: sub, profilePictureFullwidthSubtype: "landscape" })).html;
        seen.add(html);
        if (style === "hidden") expect(html).not.toMatch(/class="pic/);
        if (style === "initials") expect(html).toContain(">AL<");
        if (style === "full_width") expect(html).toContain("fw-landscape");
        if (style === "icon") expect(html).toContain(`ic-${sub}`);
      }
    for (const t of THEME_IDS) expect(render(snapshot({ selectedThemeName: t })).html).toContain("<style>");
    for (const b of ["box", "rounded", "pill"] as const) expect(render(snapshot({ buttonShapeStyle: b })).html).toContain("border-radius:" + (b === "box" ? "0" : b === "pill" ? "999px" : "12px"));
    for (const p of ["top", "bottom", "floating"] as const) expect(render(snapshot({ socialLinksPosition: p }, [], [social("github", 1)])).html).toContain(`soc-${p}`);
    for (const f of FONT_PAIRING_IDS) expect(render(snapshot({ customFontPairingName: f })).html).toContain("@font-face");
    expect(render(snapshot({ customPageBackgroundColor: "#123456" })).html).toContain("background:#123456");
    expect(render(snapshot({ qrCodeVisible: false })).html).not.toContain('data-act="qr"');
    expect(seen.size).toBeGreaterThan(3);
  });

  it("writes SEO tags, preview noindex and a CSP whose hash matches the inline style", () => {
    const { html } = render(snapshot({ bio: "My bio" }));
    expect(html).toContain('<link rel="canonical" href="https://plinth.example/alice">');
    expect(html).toContain('<meta name="description" content="My bio">');
    expect(html).toContain('property="og:image" content="https://plinth.example/media/alice.webp"');
    expect(html).toContain('"@type":"ProfilePage"');
    expect(html).not.toContain("noindex");
    const css = html.match(/<style>([\s\S]*?)<\/style>/)![1]!;
    const h = createHash("sha256").update(css).digest("base64");
    expect(html).toContain(`style-src 'sha256-${h}'`);
    expect(html).toContain("connect-src 'self' https://api.plinth.example");
    expect(html).not.toContain("unsafe-inline");
    const pv = render(snapshot(), PLUS, "preview").html;
    expect(pv).toContain('content="noindex,nofollow"');
    expect(pv).toContain("Preview mode");
  });

  it("keeps a 20-link page with picture and 6 social icons at or under 14 KB gzip", () => {
    const links = Array.from({ length: 20 }, (_, i) => link({ title: `My link number ${i}`, url: `https://example.com/path/${i}` }));
    const socials = PLATFORM_IDS.slice(0, 6).map((p, i) => social(p, i));
    const { html } = render(snapshot({}, links, socials));
    expect(gzipSync(html).length).toBeLessThanOrEqual(14 * 1024);
  });
});

describe("escaping and URL safety", () => {
  const hostile = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "'><svg onload=alert(1)>", "</style><script>x</script>", "\u202e<script>", "</script><script>alert(1)</script>"];
  const badUrls = ["javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)", "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)", "//evil.example/x", "\u0000javascript:alert(1)"];
  it("never emits executable markup from user text or unsafe URLs", () => {
    for (const h of hostile) {
      for (const u of badUrls) {
        const s = snapshot(
          { displayName: h, bio: h, seoTitle: h, seoDescription: h, longFormText: h, initialsText: h, username: "alice", profilePictureUrl: u, profilePictureStyle: "icon" },
          [link({ title: h, url: u, data: { message: h, text: h, url: u, description: h, name: h } }), link({ linkType: "donation", title: h, url: u, data: { message: h } }),
            link({ linkType: "text_link", title: h, url: u, data: { url: u, text: h } }), link({ title: h, url: "https://ok.example/", thumbnailUrl: u })],
          [{ id: "s1", platform: "x", url: u, displayOrder: 1, isVisible: true }],
        );
        s.lists = [{ id: "g", title: h, orderIndex: 0 }];
        for (const plan of [PLUS, LITE]) {
          const { html } = render(s, plan);
          const scripts = html.match(/<script\b[^>]*>/g) ?? [];
          expect(scripts.every((t) => /type="application\/(ld\+)?json"|src="\/_p\/visitor/.test(t))).toBe(true);
          const tagsOnly = (html.replace(/="[^"]*"/g, "=\"\"").match(/<[a-z][^>]*>/gi) ?? []).join("");
          expect(tagsOnly).not.toMatch(/\son\w+=/i);
          expect(tagsOnly).not.toMatch(/<(img|svg) src=x|<svg onload/i);
          expect(html).not.toMatch(/(href|src)="\s*(javascript|data|vbscript):/i);
          expect(html).not.toMatch(/(href|src)="\/\//);
          expect(html).not.toContain("<script>alert");
          expect(html.match(/<\/style>/g)?.length).toBe(1);
        }
      }
    }
  });
});
