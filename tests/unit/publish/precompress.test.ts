/**
 * Compressed copies (ADR 054): the shared assets, sitemap.xml and robots.txt and the site's build
 * write a brotli and a gzip copy beside each text file, with the file's modification time, each a
 * new file swapped in before the file it belongs to. Pages and their own files get none, and a
 * publish or bulk re-render removes the old ones (ADR 121).
 */
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createAccount } from "#api/services/accounts.ts";
import { links, userProfiles } from "#db/schema.ts";
import { newId } from "#db/ids.ts";
import { ensureSharedAssets } from "#renderer/assets.ts";
import { loadDraft } from "#renderer/draft.ts";
import { pageWrites } from "#renderer/page-writes.ts";
import { ENCODINGS, sameMtime } from "#renderer/precompress.ts";
import { publishPage } from "#renderer/publish.ts";
import { republishAll } from "#renderer/republish.ts";
import { precompressFolder } from "#scripts/lib/precompress-site.ts";
import { fileDatabase } from "#tests/support/file-database.ts";

const { db, dir, publishedDir } = fileDatabase("plinth-precompress-");
const ORIGIN = "http://localhost:4321";

const decode = { br: brotliDecompressSync, gzip: gunzipSync } as const;

/** Each copy of `path` decompresses to the file and carries its modification time. */
function expectCopiesOf(path: string): void {
  const original = readFileSync(path);
  for (const e of ENCODINGS) {
    const copy = path + e.suffix;
    expect(decode[e.name](readFileSync(copy)).equals(original), copy).toBe(true);
    expect(sameMtime(statSync(path).mtimeMs, statSync(copy).mtimeMs), copy).toBe(true);
  }
}

function owner(username: string): string {
  const { userId } = createAccount(db, { email: `${username}@example.com`, username, passwordHash: null, emailVerified: true, now: new Date() });
  db.insert(links).values({ id: newId(), userId, title: "Card", url: "#", linkType: "vcf", linkSpecificData: { name: "Pressed Card" } }).run();
  return userId;
}

describe("publishing", () => {
  it("writes the page, its QR code and contact card without copies, and sitemap.xml and robots.txt with theirs (ADR 121)", () => {
    const userId = owner("pressed");
    const now = new Date("2026-03-01T10:00:00.123Z");
    expect(publishPage(db, userId, { publishedDir, origin: ORIGIN, now })).toMatchObject({ ok: true });
    const pageDir = join(publishedDir, "pressed");
    const names = readdirSync(pageDir).filter((n) => !n.startsWith("."));
    expect(names.sort()).toEqual([expect.stringMatching(/^contact-.*\.vcf$/), "index.html", expect.stringMatching(/^qr-.*\.svg$/)]);
    // The page's time is the instant it was rendered for.
    expect(statSync(join(pageDir, "index.html")).mtime.toISOString()).toBe(now.toISOString());
    for (const n of ["sitemap.xml", "robots.txt"]) expectCopiesOf(join(publishedDir, n));
    // Nothing is left under a temporary name, and temporary names are dot files.
    expect(readdirSync(pageDir).filter((n) => n.startsWith("."))).toEqual([]);
  });

  it("lists the page's files without copies, index.html last", () => {
    const userId = owner("ordered");
    const draft = loadDraft(db, userId)!;
    const writes = pageWrites(draft.snapshot, draft.plan, { publishedDir, origin: ORIGIN, now: new Date(), assets: ensureSharedAssets(publishedDir) });
    const order = writes.map((w) => w.path.slice(w.path.lastIndexOf("/") + 1));
    expect(order.filter((n) => /\.(br|gz)$/.test(n))).toEqual([]);
    expect(order.at(-1)).toBe("index.html");
  });

  it("removes the copies an older version left, so no static host sends them for the new page", () => {
    const userId = owner("renewed");
    const pageDir = join(publishedDir, "renewed");
    publishPage(db, userId, { publishedDir, origin: ORIGIN, now: new Date() });
    // Copies an earlier release wrote beside the page.
    for (const e of ENCODINGS) writeFileSync(join(pageDir, `index.html${e.suffix}`), "older page");
    db.update(userProfiles).set({ displayName: "A Second Version" }).where(eq(userProfiles.userId, userId)).run();
    publishPage(db, userId, { publishedDir, origin: ORIGIN, now: new Date() });
    expect(readFileSync(join(pageDir, "index.html"), "utf8")).toContain("A Second Version");
    for (const e of ENCODINGS) expect(existsSync(join(pageDir, `index.html${e.suffix}`)), e.suffix).toBe(false);
  });

  it("gives the shared assets their copies, also to assets written before copies were made", () => {
    const fresh = join(dir, "fresh-published");
    const assets = ensureSharedAssets(fresh);
    const visitor = join(fresh, assets.visitorScript.src);
    const favicon = join(fresh, assets.favicon);
    for (const f of [visitor, favicon]) expectCopiesOf(f);
    // Fonts are compressed already: no copies.
    const font = join(fresh, Object.values(assets.fonts)[0]![0]!);
    expect(existsSync(`${font}.br`) || existsSync(`${font}.gz`)).toBe(false);

    // A folder published by an earlier version: the asset is there, its copies are not.
    const earlier = join(dir, "earlier-published");
    mkdirSync(join(earlier, "_p"), { recursive: true });
    const old = new Date("2025-06-01T00:00:00.456Z");
    writeFileSync(join(earlier, assets.visitorScript.src), readFileSync(visitor));
    utimesSync(join(earlier, assets.visitorScript.src), old, old);
    ensureSharedAssets(earlier);
    expectCopiesOf(join(earlier, assets.visitorScript.src));
  });
});

describe("bulk republish", () => {
  it("writes no copies and removes the old ones, so no static host sends a page older than the file (ADR 121)", async () => {
    const names = ["bulkpress1", "bulkpress2", "bulkpress3"];
    for (const n of names) publishPage(db, owner(n), { publishedDir, origin: ORIGIN, now: new Date() });
    // Copies an earlier release wrote beside the pages.
    for (const n of names) for (const e of ENCODINGS) writeFileSync(join(publishedDir, n, `index.html${e.suffix}`), "older page");
    await republishAll(db, { publishedDir, origin: "http://renamed.example", threads: 2 });
    for (const n of names) {
      const page = join(publishedDir, n, "index.html");
      expect(readFileSync(page, "utf8")).toContain("http://renamed.example");
      for (const e of ENCODINGS) expect(existsSync(page + e.suffix), page + e.suffix).toBe(false);
    }
  }, 60_000);
});

describe("the site's build", () => {
  it("writes copies of every text file with its time, and none of images or fonts", async () => {
    const site = join(dir, "site");
    mkdirSync(join(site, "_astro"), { recursive: true });
    const files = { "index.html": "<!doctype html><p>hello</p>".repeat(50), "_astro/app.js": "console.log(1);".repeat(80), "_astro/app.css": "p{color:red}".repeat(80), "manifest.webmanifest": "{}", "og.png": "png", "_astro/inter.woff2": "woff2" };
    for (const [name, content] of Object.entries(files)) writeFileSync(join(site, name), content);
    expect(await precompressFolder(site)).toBe(4);
    for (const name of ["index.html", "_astro/app.js", "_astro/app.css", "manifest.webmanifest"]) expectCopiesOf(join(site, name));
    for (const name of ["og.png", "_astro/inter.woff2"]) for (const e of ENCODINGS) expect(existsSync(join(site, name + e.suffix))).toBe(false);
  });
});
