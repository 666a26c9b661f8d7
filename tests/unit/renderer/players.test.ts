/**
 * Players, Music cards and Social buttons on the public page (ADR 212): the facade is a plain link
 * the visitor script upgrades, nothing outside the page loads before a press, the CSP frames only
 * the page's embed hosts, and a page without players keeps its policy.
 */
import { describe, expect, it } from "vitest";
import { recognizeEmbed } from "#core/embeds.ts";
import { all, byClass, byTag, hasClass, normText, parseHtml, type El } from "./html.ts";
import { API_ORIGIN, link, LITE, render, snapshot } from "./fixtures.ts";

const page = (...a: Parameters<typeof render>) => {
  const out = render(...a);
  return { ...out, doc: parseHtml(out.html) };
};
const cspOf = (doc: El) => all(doc, (e) => e.tag === "meta" && e.attrs["http-equiv"] === "Content-Security-Policy")[0]!.attrs.content!;
const directives = (doc: El) => Object.fromEntries(cspOf(doc).split("; ").map((d) => [d.split(" ")[0]!, d.split(" ").slice(1).join(" ")]));
const main = (doc: El) => byTag(doc, "main")[0]!;

const YT = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";
const VIMEO = "https://vimeo.com/76979871";
const SPOTIFY_TRACK = "https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC";
const services = [
  { service: "bandcamp", url: "https://artist.bandcamp.com/album/first" },
  { service: "spotify", url: "https://open.spotify.com/album/4uLU6hMCjMI75M1A2tKUQC" },
  { service: "apple_music", url: "https://music.apple.com/us/album/first/1708308989" },
];

const players = [
  link({ title: "New video", url: YT, data: { player: "on" } }),
  link({ title: "Short film", url: VIMEO, data: { player: "on" } }),
  link({ title: "Single", url: SPOTIFY_TRACK, data: { player: "on" } }),
];
const music = link({ linkType: "music", title: "First album", url: services[0]!.url, thumbnailUrl: "/media/ab/cover.webp", data: { services: JSON.stringify(services) } });
const socialButton = link({ linkType: "social", title: "Instagram", url: "https://www.instagram.com/alice", data: { platform: "instagram", handle: "alice" } });

/** Every URL an element would load or send before a press: src, srcset, poster, data of objects, link hrefs of the head. */
function loadedUrls(doc: El): string[] {
  const out: string[] = [];
  for (const e of all(doc)) {
    for (const a of ["src", "srcset", "poster", "data", "background", "action", "formaction"]) if (e.attrs[a]) out.push(e.attrs[a]!);
    if (e.tag === "link" && e.attrs.href && e.attrs.rel !== "canonical") out.push(e.attrs.href);
  }
  return out;
}

describe("a player", () => {
  const { doc, html } = page(snapshot({}, [...players, music, socialButton]));
  const facades = byClass(main(doc), "ply");

  it("is a plain link to the address, with the embed address only in a data attribute", () => {
    expect(facades).toHaveLength(3);
    for (const [i, f] of facades.entries()) {
      expect(f.tag).toBe("a");
      expect(f.attrs.href).toBe(players[i]!.url);
      expect(f.attrs.rel).toBe("noopener");
      expect(f.attrs["data-link"]).toBe(players[i]!.id);
      expect(f.attrs["data-embed"]).toBe(recognizeEmbed(players[i]!.url)!.embedUrl);
    }
    expect(facades[0]!.attrs["data-embed"]).toMatch(/^https:\/\/www\.youtube-nocookie\.com\/embed\/dQw4w9WgXcQ\?autoplay=1$/);
    expect(facades[1]!.attrs["data-embed"]).toContain("dnt=1");
  });

  it("draws the facade itself: the service's mark, the title with the service's name, a play mark, in the player's box", () => {
    expect(normText(facades[0]!)).toBe("New video (YouTube)");
    expect(byTag(facades[0]!, "svg")).toHaveLength(2);
    expect(hasClass(facades[0]!, "a-v")).toBe(true);
    expect(hasClass(facades[2]!, "a-w")).toBe(true);
    expect(byTag(main(doc), "iframe")).toHaveLength(0);
    expect(html).toContain(".a-v{aspect-ratio:16/9}");
  });

  it("loads nothing from any other host before a press", () => {
    for (const url of loadedUrls(doc)) expect(url, url).toMatch(/^(\/|data:|https:\/\/plinth\.example\/)/);
    expect(html).not.toMatch(/<iframe|<script[^>]+src="https?:/);
  });

  it("lets the page frame exactly the embed hosts it uses", () => {
    expect(directives(doc)["frame-src"]).toBe("https://www.youtube-nocookie.com https://player.vimeo.com https://open.spotify.com");
    const one = page(snapshot({}, [link({ url: YT, data: { player: "on" } }), link({ url: "https://youtu.be/dQw4w9WgXcQ", data: { player: "on" } })])).doc;
    expect(directives(one)["frame-src"]).toBe("https://www.youtube-nocookie.com");
  });

  it("is a plain link when switched off, and the page's policy and stylesheet are then those of a page without players", () => {
    const plain = page(snapshot({}, [link({ title: "New video", url: YT, data: { player: "off" } }), link({ title: "Short film", url: VIMEO })]));
    const before = page(snapshot({}, [link({ title: "New video", url: YT }), link({ title: "Short film", url: VIMEO })]));
    expect(byClass(main(plain.doc), "ply")).toHaveLength(0);
    expect(byClass(main(plain.doc), "btn").map((b) => b.attrs.href)).toEqual([YT, VIMEO]);
    expect(cspOf(plain.doc)).toBe(cspOf(before.doc));
    expect(cspOf(plain.doc)).toBe(
      `default-src 'none'; style-src ${directives(plain.doc)["style-src"]}; script-src ${directives(plain.doc)["script-src"]}; connect-src ${API_ORIGIN}; img-src 'self' data:; font-src 'self'; base-uri 'none'; form-action 'none'`,
    );
    expect(cspOf(plain.doc)).not.toContain("frame-src");
    expect(byTag(plain.doc, "style")[0]!.text).not.toContain(".ply");
  });

  it("is a plain link when the address is no longer recognised, whatever the stored switch says", () => {
    const { doc: d } = page(snapshot({}, [link({ title: "Shop", url: "https://shop.example.com/watch?v=dQw4w9WgXcQ", data: { player: "on" } })]));
    expect(byClass(main(d), "ply")).toHaveLength(0);
    expect(byClass(main(d), "btn")[0]!.attrs.href).toBe("https://shop.example.com/watch?v=dQw4w9WgXcQ");
    expect(cspOf(d)).not.toContain("frame-src");
  });
});

describe("a Music card", () => {
  const { doc } = page(snapshot({}, [music]));
  const card = byClass(main(doc), "mus")[0]!;

  it("shows the cover, the title and a button per service in the owner's order, each counted as a click on the link", () => {
    expect(byTag(card, "img")[0]!.attrs).toMatchObject({ src: "/media/ab/cover.webp", alt: "" });
    expect(normText(byClass(card, "mt")[0]!)).toBe("First album");
    const buttons = byClass(card, "msv");
    expect(buttons.map(normText)).toEqual(["Bandcamp", "Spotify", "Apple Music"]);
    expect(buttons.map((b) => b.attrs.href)).toEqual(services.map((s) => s.url));
    for (const b of buttons) expect(b.attrs["data-link"]).toBe(music.id);
    expect(byTag(card, "ul")[0]!.attrs["aria-label"]).toBe("Listen to First album");
    expect(cspOf(doc)).not.toContain("frame-src");
  });

  it("links to nothing the rules refuse now, and draws nothing without a service left", () => {
    const hostile = link({ linkType: "music", title: "Bad", data: { services: JSON.stringify([{ service: "spotify", url: "javascript:alert(1)" }, { service: "tidal", url: "https://tidal.com/album/1" }]) } });
    const { doc: d, html } = page(snapshot({}, [hostile, link({ linkType: "music", title: "Empty", data: { services: "[]" } })]));
    expect(byClass(main(d), "msv").map((b) => b.attrs.href)).toEqual(["https://tidal.com/album/1"]);
    expect(html).not.toContain("javascript:");
    expect(normText(main(d))).not.toContain("Empty");
  });

  it("is hidden on a Lite page, as a Plus-only type", () => {
    const { doc: d } = page(snapshot({}, [music, socialButton, players[0]!]), LITE);
    expect(byClass(main(d), "mus")).toHaveLength(0);
    expect(byClass(main(d), "ply")).toHaveLength(1);
    expect(byClass(main(d), "btn").map(normText)).toEqual(["Instagram"]);
  });
});

describe("a Social button", () => {
  it("is a full-width button to the profile with the platform's mark", () => {
    const { doc } = page(snapshot({}, [socialButton]));
    const b = byClass(main(doc), "btn")[0]!;
    expect(b.tag).toBe("a");
    expect(b.attrs.href).toBe("https://www.instagram.com/alice");
    expect(b.attrs["data-link"]).toBe(socialButton.id);
    expect(normText(b)).toBe("Instagram");
    expect(byTag(b, "svg")[0]!.attrs["aria-hidden"]).toBe("true");
    expect(byTag(b, "path").length).toBeGreaterThan(0);
  });
});

describe("the policies sent as headers with a page", () => {
  it("say nothing of child frames, so the page's own frame-src decides (api/content-security.ts, docs/nginx.conf)", async () => {
    const { readFileSync } = await import("node:fs");
    const { PAGE_HEADERS } = await import("#api/content-security.ts");
    const nginx = [...readFileSync(new URL("../../../docs/nginx.conf", import.meta.url), "utf8").matchAll(/add_header Content-Security-Policy "([^"]+)"/g)].map((m) => m[1]!);
    expect(nginx.length).toBeGreaterThan(0);
    for (const policy of [PAGE_HEADERS["Content-Security-Policy"], ...nginx]) {
      const names = policy.split(";").map((d) => d.trim().split(" ")[0]);
      for (const governs of ["frame-src", "child-src", "default-src"]) expect(names, policy).not.toContain(governs);
    }
  });
});
