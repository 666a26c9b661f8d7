/**
 * One URL rule for the editor, the API and the page (ADR 096): across odd and hostile URLs, every
 * URL the link schema accepts is saved and shows on the published page exactly as entered, and every
 * URL it refuses gets 400 "Please enter a valid URL" with nothing stored.
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
import { GOOD_URLS, ODD_URLS } from "#tests/support/odd-urls.ts";
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
  url: string;
}

/** What happened to each body: saved (with its id), or refused with the URL message on `field`. */
async function addAll(bodies: { body: Record<string, unknown>; url: string }[], field: string): Promise<Saved[]> {
  const saved: Saved[] = [];
  for (const { body, url } of bodies) {
    const { thumbnailUrl, ...own } = body;
    const editorSays = LinkInputSchema.safeParse(own).success && LinkExtrasSchema.safeParse({ thumbnailUrl }).success;
    const res = await owner.call("POST", "/api/links", body);
    const json = (await res.json()) as { link?: { id: string }; error?: { message: string; fields: Record<string, string> } };
    const where = `${field} ${JSON.stringify(url)} -> ${res.status} ${JSON.stringify(json).slice(0, 200)}`;
    if (res.status === 201) {
      saved.push({ id: json.link!.id, url: url.trim() });
      expect(editorSays, where).toBe(true);
    } else {
      expect(res.status, where).toBe(400);
      expect(json.error, where).toEqual({ code: "validation_failed", message: LINK_MESSAGES.urlInvalid, fields: { [field]: LINK_MESSAGES.urlInvalid } });
      expect(editorSays, where).toBe(false);
    }
  }
  return saved;
}

async function publishedPage(): Promise<El> {
  expect((await owner.call("POST", "/api/publish")).status).toBe(200);
  return parseHtml(readFileSync(join(t.deps.env.PUBLISHED_DIR, owner.username, "index.html"), "utf8"));
}

describe("the URL rule, from the API to the page", () => {
  it("shows every link URL it accepts, exactly, and refuses the rest with 'Please enter a valid URL'", async () => {
    const buttons = await addAll(
      ODD_URLS.map((url, i) => ({ url, body: { linkType: "standard_url", title: `Button ${i}`, url } })),
      "url",
    );
    const texts = await addAll(
      ODD_URLS.map((url, i) => ({ url, body: { linkType: "text_link", title: `Text ${i}`, data: { text: `Text ${i}`, url } } })),
      "data.url",
    );
    // Exactly the good ones, trimmed; "https:example.com", the case that started this, is refused.
    const good = [...GOOD_URLS, "https://example.com/padded", "https://example.com/tab"];
    expect(buttons.map((b) => b.url)).toEqual(good);
    expect(texts.map((b) => b.url)).toEqual(good);

    const page = await publishedPage();
    const hrefOf = (id: string) => all(page, (e) => e.tag === "a" && e.attrs["data-link"] === id).map((e) => e.attrs.href);
    for (const s of [...buttons, ...texts]) expect(hrefOf(s.id), s.url).toEqual([s.url]);
    const stored = t.deps.db.select({ id: links.id }).from(links).where(eq(links.userId, owner.userId)).all();
    expect(stored).toHaveLength(buttons.length + texts.length);
  });

  it("shows every thumbnail it accepts and refuses the rest the same way", async () => {
    const thumbs = await addAll(
      ODD_URLS.map((url, i) => ({ url, body: { linkType: "standard_url", title: `Thumb ${i}`, url: "https://ok.example/", thumbnailUrl: url } })),
      "thumbnailUrl",
    );
    expect(thumbs.length).toBeGreaterThan(5);
    const page = await publishedPage();
    for (const s of thumbs) {
      const img = all(page, (e) => e.tag === "a" && e.attrs["data-link"] === s.id).flatMap((a) => all(a, (e) => e.tag === "img"));
      expect(img.map((e) => e.attrs.src), s.url).toEqual([new URL(s.url).href]);
    }
  });
});
