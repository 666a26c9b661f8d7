/**
 * One URL rule for the editor, the API and the page (ADR 096, 144, 145): across odd and hostile URLs,
 * every URL the link schema accepts is saved (completed with https:// when typed without a scheme)
 * and shows on the published page exactly as saved, and every URL it refuses gets 400 "Please enter a
 * valid URL", or the e-mail or phone message, with nothing stored.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerApp } from "#api/site.ts";
import { LinkExtrasSchema } from "#core/dashboard-schemas.ts";
import { LINK_MESSAGES, LinkInputSchema } from "#core/link-input.ts";
import { links } from "#db/schema.ts";
import { all, parseHtml, type El } from "#tests/unit/renderer/html.ts";
import { createTestApp, type TestApp } from "#tests/support/app.ts";
import { BAD_CONTACT_URLS, COMPLETED_CONTACT_URLS, COMPLETED_URLS, CONTACT_URLS, GOOD_URLS, ODD_URLS } from "#tests/support/odd-urls.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
let owner: ApiOwner;
beforeAll(() => {
  t = createTestApp();
  // A corpus of a few hundred saves is more than an owner's burst of writes (ADR 093): the clock
  // moves a second per request, the pace of a person, so the budget never runs out.
  let at = Date.now();
  t.app = createServerApp({ ...t.deps, now: () => new Date((at += 1000)) });
  owner = createApiOwner(t, "trial");
});
afterAll(() => t.close());

interface Saved {
  id: string;
  /** What was typed. */
  typed: string;
  /** What was stored for it. */
  url: string;
}

/** What happened to each body: saved (with its id and stored URL), or refused with `message(url)` on `field`. */
async function addAll(bodies: { body: Record<string, unknown>; url: string }[], field: string, message: (url: string) => string = () => LINK_MESSAGES.urlInvalid): Promise<Saved[]> {
  const saved: Saved[] = [];
  for (const { body, url } of bodies) {
    const { thumbnailUrl, ...own } = body;
    const editorSays = LinkInputSchema.safeParse(own).success && LinkExtrasSchema.safeParse({ thumbnailUrl }).success;
    const res = await owner.call("POST", "/api/links", body);
    const json = (await res.json()) as { link?: { id: string; url: string; thumbnailUrl: string | null; linkSpecificData: Record<string, string> }; error?: { message: string; fields: Record<string, string> } };
    const where = `${field} ${JSON.stringify(url)} -> ${res.status} ${JSON.stringify(json).slice(0, 200)}`;
    if (res.status === 201) {
      const l = json.link!;
      saved.push({ id: l.id, typed: url, url: field === "thumbnailUrl" ? l.thumbnailUrl! : field === "data.url" ? l.linkSpecificData.url! : l.url });
      expect(editorSays, where).toBe(true);
    } else {
      expect(res.status, where).toBe(400);
      const m = message(url);
      expect(json.error, where).toEqual({ code: "validation_failed", message: m, fields: { [field]: m } });
      expect(editorSays, where).toBe(false);
    }
  }
  return saved;
}

async function publishedPage(): Promise<El> {
  expect((await owner.call("POST", "/api/publish")).status).toBe(200);
  return parseHtml(readFileSync(join(t.deps.env.PUBLISHED_DIR, owner.username, "index.html"), "utf8"));
}

const CONTACT_MESSAGES = { mailto: LINK_MESSAGES.emailLinkInvalid, tel: LINK_MESSAGES.phoneLinkInvalid, sms: LINK_MESSAGES.textLinkInvalid };
const BAD_CONTACT = new Map(BAD_CONTACT_URLS);
const completedTyped = [...COMPLETED_URLS, ...COMPLETED_CONTACT_URLS].map(([typed]) => typed);
/** Every URL the corpus has for a button's or text link's address. */
const ADDRESSES = [...ODD_URLS, ...completedTyped, ...CONTACT_URLS, ...BAD_CONTACT_URLS.map(([u]) => u)];

describe("the URL rule, from the API to the page", () => {
  it("shows every link URL it accepts, as saved, and refuses the rest with the message of their kind", async () => {
    const buttons = await addAll(
      ADDRESSES.map((url, i) => ({ url, body: { linkType: "standard_url", title: `Button ${i}`, url } })),
      "url",
      (url) => CONTACT_MESSAGES[BAD_CONTACT.get(url) ?? ("" as never)] ?? LINK_MESSAGES.urlInvalid,
    );
    const texts = await addAll(
      ADDRESSES.map((url, i) => ({ url, body: { linkType: "text_link", title: `Text ${i}`, data: { text: `Text ${i}`, url } } })),
      "data.url",
      (url) => CONTACT_MESSAGES[BAD_CONTACT.get(url) ?? ("" as never)] ?? LINK_MESSAGES.urlInvalid,
    );
    // Exactly the good ones, trimmed, and the completed ones as completed; "https:example.com", the
    // case that started ADR 096, is refused, and so is every malformed e-mail or phone link.
    const good: [string, string][] = [
      ...GOOD_URLS.map((u): [string, string] => [u, u]),
      ["example.com", "https://example.com"],
      ["www.example.com", "https://www.example.com"],
      ["shop.example.com/sale", "https://shop.example.com/sale"],
      ["mailto:a@example.com", "mailto:a@example.com"],
      ["tel:+15550100", "tel:+15550100"],
      ["sms:+15550100", "sms:+15550100"],
      ["  https://example.com/padded  ", "https://example.com/padded"],
      ["\thttps://example.com/tab\n", "https://example.com/tab"],
      ...COMPLETED_URLS,
      ...COMPLETED_CONTACT_URLS,
      // A contact link's scheme is saved in lower case.
      ...CONTACT_URLS.map((u): [string, string] => [u, u.replace(/^[a-z]+:/i, (scheme) => scheme.toLowerCase())]),
    ];
    expect(buttons.map((b) => [b.typed, b.url])).toEqual(good);
    expect(texts.map((b) => [b.typed, b.url])).toEqual(good);

    const page = await publishedPage();
    const hrefOf = (id: string) => all(page, (e) => e.tag === "a" && e.attrs["data-link"] === id).map((e) => e.attrs.href);
    for (const s of [...buttons, ...texts]) expect(hrefOf(s.id), s.url).toEqual([s.url]);
    const stored = t.deps.db.select({ id: links.id }).from(links).where(eq(links.userId, owner.userId)).all();
    expect(stored).toHaveLength(buttons.length + texts.length);
  });

  it("keeps e-mail and phone links to buttons and text links: a donation, a file or a thumbnail needs a web address", async () => {
    for (const url of [...CONTACT_URLS, "hello@example.com"]) {
      const donation = await owner.call("POST", "/api/links", { linkType: "donation", title: "Tip", url });
      expect(donation.status, url).toBe(400);
      expect(((await donation.json()) as any).error.fields).toEqual({ url: LINK_MESSAGES.urlInvalid });
      const file = await owner.call("POST", "/api/links", { linkType: "lead_magnet", title: "Guide", data: { description: "d", fileUrl: url } });
      expect(((await file.json()) as any).error.fields, url).toEqual({ "data.fileUrl": LINK_MESSAGES.urlInvalid });
      const thumb = await owner.call("POST", "/api/links", { linkType: "standard_url", title: "T", url: "https://ok.example/", thumbnailUrl: url });
      expect(((await thumb.json()) as any).error.fields, url).toEqual({ thumbnailUrl: LINK_MESSAGES.urlInvalid });
    }
    // A file URL and a thumbnail typed without a scheme are completed like any web address.
    const file = await owner.call("POST", "/api/links", { linkType: "lead_magnet", title: "Guide", data: { description: "d", fileUrl: "files.example/guide.pdf" }, thumbnailUrl: "cdn.example/t.png" });
    expect(file.status).toBe(201);
    expect(((await file.json()) as any).link).toMatchObject({ linkSpecificData: { fileUrl: "https://files.example/guide.pdf" }, thumbnailUrl: "https://cdn.example/t.png" });
  });

  it("shows every thumbnail it accepts and refuses the rest the same way", async () => {
    const thumbs = await addAll(
      ODD_URLS.map((url, i) => ({ url, body: { linkType: "standard_url", title: `Thumb ${i}`, url: "https://ok.example/", thumbnailUrl: url } })),
      "thumbnailUrl",
    );
    expect(thumbs.length).toBeGreaterThan(5);
    const page = await publishedPage();
    expect(thumbs.find((s) => s.typed === "example.com")?.url).toBe("https://example.com");
    for (const s of thumbs) {
      const img = all(page, (e) => e.tag === "a" && e.attrs["data-link"] === s.id).flatMap((a) => all(a, (e) => e.tag === "img"));
      expect(img.map((e) => e.attrs.src), s.url).toEqual([new URL(s.url).href]);
    }
  });
});
