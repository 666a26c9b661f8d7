/**
 * The domain rule (core/domains.ts, ADR 240): the stored ASCII form, the shown Unicode form, one
 * alphabet per label, and www and the apex as one claim.
 */
import { describe, expect, it } from "vitest";
import { claimKeyOf, DOMAIN_MESSAGES, domainShown, parseDomain, servesHost } from "#core/domains.ts";

const ascii = (input: string) => {
  const r = parseDomain(input);
  return r.ok ? r.ascii : r.message;
};

describe("parseDomain", () => {
  it("stores the ASCII form, lowercase, without a final dot", () => {
    expect(ascii(" Links.Example-Music.COM. ")).toBe("links.example-music.com");
    expect(ascii("bücher-links.de")).toBe("xn--bcher-links-thb.de");
    expect(ascii("xn--bcher-links-thb.de")).toBe("xn--bcher-links-thb.de");
    // Full-width letters map to ASCII as browsers map them (UTS 46).
    expect(ascii("ｌｉｎｋｓ.example-music.com")).toBe("links.example-music.com");
  });

  it("takes one alphabet per label, and the mixes a language writes", () => {
    expect(parseDomain("пример.рф").ok).toBe(true);
    expect(parseDomain("παράδειγμα.gr").ok).toBe(true);
    expect(parseDomain("ドメイン名例.jp").ok).toBe(true);
    expect(parseDomain("漢字ひらがなカタカナ.jp").ok).toBe(true);
    expect(ascii("p\u0430ypal.com")).toBe(DOMAIN_MESSAGES.mixedScripts);
    expect(ascii("pay\u03c1al.com")).toBe(DOMAIN_MESSAGES.mixedScripts);
  });

  it("refuses what is not a domain name", () => {
    for (const input of ["a", "a..b", "1.2.3.4", "a.com/x", "a.com:1", "a b.com", "a.com\u0000", "\u200ba.com", "a.123"]) {
      expect(parseDomain(input).ok, JSON.stringify(input)).toBe(false);
    }
  });
});

describe("one claim for www and the apex", () => {
  it("keys both by the name without www.", () => {
    expect(claimKeyOf("www.example-music.com")).toBe("example-music.com");
    expect(claimKeyOf("example-music.com")).toBe("example-music.com");
    expect(claimKeyOf("links.example-music.com")).toBe("links.example-music.com");
    // "www.com" is an apex named www, not the www of "com".
    expect(claimKeyOf("www.com")).toBe("www.com");
  });

  it("serves the apex of an added www name and the www of an added apex, not the www of a deeper name", () => {
    expect(servesHost("example-music.com", "www.example-music.com")).toBe(true);
    expect(servesHost("www.example-music.com", "example-music.com")).toBe(true);
    expect(servesHost("links.example-music.com", "links.example-music.com")).toBe(true);
    expect(servesHost("links.example-music.com", "www.links.example-music.com")).toBe(false);
  });

  it("shows an international name in Unicode", () => {
    expect(domainShown("xn--bcher-links-thb.de")).toBe("bücher-links.de");
    expect(domainShown("links.example-music.com")).toBe("links.example-music.com");
  });
});
