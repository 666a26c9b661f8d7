/**
 * The one URL rule (core/url-rule.ts, ADR 096): what it accepts, what it refuses, and that whatever
 * it accepts is a URL browsers parse to an http(s) host with no credentials.
 */
import { describe, expect, it } from "vitest";
import { completeUrl, isContactUrl, isImageUrl, isLinkAddress, isWebUrl } from "#core/url-rule.ts";
import { BAD_CONTACT_URLS, BAD_URLS, COMPLETED_CONTACT_URLS, COMPLETED_URLS, CONTACT_URLS, GOOD_URLS } from "#tests/support/odd-urls.ts";
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

describe("e-mail, phone and text-message links (ADR 144)", () => {
  it("accepts one address with an optional subject, and one E.164 number", () => {
    for (const u of CONTACT_URLS) expect(isContactUrl(u), u).toBe(true);
  });

  it("refuses several recipients, other headers, line breaks, scripts, spaces and numbers not in E.164", () => {
    for (const [u] of BAD_CONTACT_URLS) expect(isContactUrl(u), JSON.stringify(u)).toBe(false);
    for (const u of [...GOOD_URLS, ...BAD_URLS.filter((b) => !CONTACT_URLS.includes(b))]) expect(isContactUrl(u), JSON.stringify(u)).toBe(false);
    // As typed, before the field completes them: spaces in a number or a subject.
    for (const [typed] of COMPLETED_CONTACT_URLS) expect(isContactUrl(typed), typed).toBe(false);
  });

  it("is a link's address only for buttons and text links; the page draws nothing else", () => {
    expect(isLinkAddress("standard_url", "mailto:a@example.com")).toBe(true);
    expect(isLinkAddress("text_link", "tel:+14155550123")).toBe(true);
    for (const type of ["donation", "music", "social", "label", "lead_magnet"]) expect(isLinkAddress(type, "mailto:a@example.com"), type).toBe(false);
    expect(isLinkAddress("donation", "https://ko-fi.com/me")).toBe(true);
  });

  it("gives a browser nothing but the one address or number: no second recipient, header or line", () => {
    for (const u of CONTACT_URLS) {
      const url = new URL(u);
      if (url.protocol === "mailto:") {
        expect(url.pathname, u).toMatch(/^[^,;%\s]+@[^,;%\s]+$/);
        expect([...url.searchParams.keys()].every((k) => k.toLowerCase() === "subject"), u).toBe(true);
        expect(url.searchParams.get("subject") ?? "", u).not.toMatch(/[\r\n]/);
      } else expect(url.pathname, u).toMatch(/^\+[1-9][0-9]{6,14}$/);
    }
  });
});

describe("completing what was typed (ADR 145)", () => {
  it("puts https:// before a web address typed without a scheme, and a contact scheme before an address or number", () => {
    for (const [typed, saved] of COMPLETED_URLS) {
      expect(completeUrl(typed), typed).toBe(saved);
      expect(isWebUrl(saved), saved).toBe(true);
    }
    for (const [typed, saved] of COMPLETED_CONTACT_URLS) {
      expect(completeUrl(typed, true), typed).toBe(saved);
      expect(isContactUrl(saved), saved).toBe(true);
    }
    // Without `contact` (a file or a thumbnail), an e-mail address or a number stays as typed.
    expect(completeUrl("hello@example.com")).toBe("hello@example.com");
    expect(completeUrl("+1 415 555 0123")).toBe("+1 415 555 0123");
  });

  it("never repairs another scheme, a browser-repaired form or a hostile string, and is idempotent", () => {
    for (const u of [...BAD_URLS, ...BAD_CONTACT_URLS.map(([b]) => b)]) {
      const out = completeUrl(u, true);
      expect(completeUrl(out, true), u).toBe(out);
      if (/^(?:https?:|javascript|data:|vbscript:|file:|ftp:|\/|#)/i.test(u.trim())) expect(out, u).toBe(u.trim());
    }
    for (const u of [...GOOD_URLS, ...CONTACT_URLS.filter((c) => !/^[A-Z]/.test(c))]) expect(completeUrl(u, true), u).toBe(u);
    expect(completeUrl("https:example.com")).toBe("https:example.com");
    expect(completeUrl("//evil.example/x")).toBe("//evil.example/x");
    expect(completeUrl("not a url")).toBe("not a url");
    expect(completeUrl("user:pass@evil.example")).toBe("user:pass@evil.example");
  });
});
