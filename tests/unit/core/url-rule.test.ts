/**
 * The one URL rule (core/url-rule.ts, ADR 096): what it accepts, what it refuses, and that whatever
 * it accepts is a URL browsers parse to an http(s) host with no credentials.
 */
import { describe, expect, it } from "vitest";
import { isImageUrl, isWebUrl } from "#core/url-rule.ts";
import { BAD_URLS, GOOD_URLS } from "#tests/support/odd-urls.ts";
import { rng } from "#tests/support/rng.ts";

/** What a browser makes of an accepted URL. */
function browserView(u: string): URL | null {
  try {
    return new URL(u);
  } catch {
    return null;
  }
}

describe("the URL rule", () => {
  it("accepts ordinary web URLs, international names, ports and IP addresses", () => {
    for (const u of GOOD_URLS) expect(isWebUrl(u), JSON.stringify(u)).toBe(true);
  });

  it("refuses URLs a browser would repair (https:example.com), hostile ones, and anything but http(s)", () => {
    for (const u of BAD_URLS) expect(isWebUrl(u), JSON.stringify(u)).toBe(false);
  });

  it("accepts only URLs a browser parses to an http(s) host without credentials", () => {
    for (const u of [...GOOD_URLS, ...BAD_URLS]) {
      if (!isWebUrl(u)) continue;
      const url = browserView(u);
      expect(url, u).not.toBeNull();
      expect(["http:", "https:"], u).toContain(url!.protocol);
      expect(url!.hostname, u).not.toBe("");
      expect(url!.username + url!.password, u).toBe("");
    }
  });

  it("agrees with the WHATWG parser on every host, the plain ones it checks without parsing included", () => {
    // Hosts built from the pieces that decide the parser's verdict: labels, hyphens, digits, IDNA
    // prefixes, numbers, ports, brackets, non-ASCII letters.
    const pieces = ["a", "b", "x", "z", "n", "-", "--", "0", "9", "1.2", ".", ".", "xn--", "XN--", "0x", "ä", "_", ":", ":8", ":99999", "[", "]", "::1", "%", "%41"];
    const r = rng(96);
    const disagreements: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      let host = "";
      const n = 1 + Math.floor(r() * 8);
      for (let k = 0; k < n; k++) host += pieces[Math.floor(r() * pieces.length)];
      for (const u of [`https://${host}`, `http://${host}/p?q#f`]) {
        const parsed = browserView(u);
        const parses = parsed !== null && parsed.hostname !== "";
        // Parsers differ on an "xn--" label that encodes no international name (Node 20 refuses
        // "xn--zz", Node 24 keeps it); the rule refuses it everywhere, and accepts nothing the
        // parser refuses.
        const encodedLabel = parses && parsed.hostname.split(".").some((l) => l.startsWith("xn--"));
        if (encodedLabel ? isWebUrl(u) && !parses : isWebUrl(u) !== parses) disagreements.push(u);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it("lets images come only over https from a plain host name (the page's CSP names it)", () => {
    expect(isImageUrl("https://cdn.example/p.png")).toBe(true);
    expect(isImageUrl("https://münchen.de/p.png")).toBe(true);
    for (const u of ["http://cdn.example/p.png", "https://a_b.example/p.png", "https://[::1]/p.png", "https:cdn.example/p.png", ...BAD_URLS]) {
      expect(isImageUrl(u), JSON.stringify(u)).toBe(false);
    }
  });
});
