import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { newId } from "#db/ids.ts";
import { linkLists, links, pageVersions, socialLinks, userProfiles } from "#db/schema.ts";
import { qrFileName } from "#renderer/components/vcard.ts";
import { loadDraft } from "#renderer/draft.ts";
import { createServerApp } from "#api/site.ts";
import { createTestApp, sameOrigin, TEST_ORIGIN, type TestApp } from "#tests/support/app.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
let owner: ApiOwner;

beforeEach(() => {
  t = createTestApp();
  owner = createApiOwner(t, "trial");
});
afterEach(() => t.close());

const pageFile = (username: string) => join(t.deps.env.PUBLISHED_DIR, username, "index.html");
const setName = (userId: string, displayName: string) =>
  t.deps.db.update(userProfiles).set({ displayName }).where(eq(userProfiles.userId, userId)).run();
function addLink(userId: string, title: string, extra: Partial<typeof links.$inferInsert> = {}): string {
  const id = newId();
  t.deps.db.insert(links).values({ id, userId, title, url: "https://example.com/" + title, orderIndex: 1, ...extra }).run();
  return id;
}

describe("POST /api/publish", () => {
  it("writes the page, records a version and reports no unpublished changes", async () => {
    setName(owner.userId, "Ada Published");
    const res = await owner.call("POST", "/api/publish");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ version: 1, changed: true });
    expect(readFileSync(pageFile(owner.username), "utf8")).toContain("Ada Published");
    const state = await (await owner.call("GET", "/api/publish/state")).json();
    expect(state).toMatchObject({ hasUnpublishedChanges: false, hasPublishedPage: true, version: 1, blockedFeatures: [] });
    expect(typeof state.lastPublishedAt).toBe("string");
  });

  it("is a no-op for an unchanged draft", async () => {
    await owner.call("POST", "/api/publish");
    const again = await owner.call("POST", "/api/publish");
    expect(await again.json()).toEqual({ version: 1, changed: false });
    expect(t.deps.db.select().from(pageVersions).where(eq(pageVersions.userId, owner.userId)).all()).toHaveLength(1);
  });

  it("serialises concurrent publishes into distinct versions", async () => {
    setName(owner.userId, "First");
    const results = await Promise.all([owner.call("POST", "/api/publish"), owner.call("POST", "/api/publish")]);
    const bodies = await Promise.all(results.map((r) => r.json()));
    expect(bodies.map((b) => b.version)).toEqual([1, 1]);
    expect(bodies.filter((b) => b.changed)).toHaveLength(1);
  });

  it("blocks a Lite owner using Plus-only features with 402 and the list, writing nothing", async () => {
    const lite = createApiOwner(t, "lite");
    addLink(lite.userId, "main", { isMainButton: true });
    addLink(lite.userId, "later", { scheduleStartTime: new Date(Date.now() + 86_400_000) });
    const res = await lite.call("POST", "/api/publish");
    expect(res.status).toBe(402);
    const body = await res.json();
    expect(body.error.message).toBe("Publishing requires Plinth Plus subscription");
    expect(body.error.details.description).toBe("Remove Plus-only features or upgrade to publish your changes.");
    expect(body.error.details.features).toEqual(expect.arrayContaining(["main_button", "scheduling"]));
    expect(existsSync(pageFile(lite.username))).toBe(false);
    const state = await (await lite.call("GET", "/api/publish/state")).json();
    expect(state.blockedFeatures).toEqual(expect.arrayContaining(["main_button", "scheduling"]));
  });

  it("lets a Lite owner without Plus-only features publish, donation links included", async () => {
    const lite = createApiOwner(t, "lite");
    addLink(lite.userId, "plain");
    addLink(lite.userId, "tip", { linkType: "donation", linkSpecificData: { message: "Thanks" } });
    expect((await lite.call("POST", "/api/publish")).status).toBe(200);
    expect(readFileSync(pageFile(lite.username), "utf8")).toContain("Thanks");
  });

  it.each([
    ["a lead magnet", { linkType: "lead_magnet" as const, url: "#" }, "lead_magnet"],
    ["a contact card", { linkType: "vcf" as const, url: "#" }, "vcf"],
    ["an end time", { scheduleEndTime: new Date(Date.now() + 86_400_000) }, "scheduling"],
  ])("blocks a Lite owner with %s", async (_name, extra, feature) => {
    const lite = createApiOwner(t, "lite");
    addLink(lite.userId, "x", extra);
    const res = await lite.call("POST", "/api/publish");
    expect(res.status).toBe(402);
    expect((await res.json()).error.details.features).toEqual([feature]);
  });

  it.each([
    ["remove_branding", { removeBranding: true }],
    ["custom_fonts", { customFontPairingName: "modern-sans" as const }],
    ["long_form_text", { longFormText: "About me" }],
  ])("blocks a Lite owner whose profile uses %s", async (feature, set) => {
    const lite = createApiOwner(t, "lite");
    t.deps.db.update(userProfiles).set(set).where(eq(userProfiles.userId, lite.userId)).run();
    const res = await lite.call("POST", "/api/publish");
    expect(res.status).toBe(402);
    expect((await res.json()).error.details.features).toEqual([feature]);
  });

  it("does not count blank long-form text, nor long-form text whose switch is off", async () => {
    const lite = createApiOwner(t, "lite");
    t.deps.db.update(userProfiles).set({ longFormText: "   \n " }).where(eq(userProfiles.userId, lite.userId)).run();
    expect((await lite.call("POST", "/api/publish")).status).toBe(200);
    t.deps.db.update(userProfiles).set({ longFormText: "Kept off the page", longFormTextVisible: false }).where(eq(userProfiles.userId, lite.userId)).run();
    expect((await lite.call("POST", "/api/publish")).status).toBe(200);
    expect(readFileSync(pageFile(lite.username), "utf8")).not.toContain("Kept off the page");
  });

  it("blocks a Lite owner whose SEO fields or premium theme the Lite page would not use, so the dialog lists them (ADR 136)", async () => {
    const lite = createApiOwner(t, "lite");
    t.deps.db.update(userProfiles).set({ seoDescription: "From the trial", selectedThemeName: "ocean-blue" }).where(eq(userProfiles.userId, lite.userId)).run();
    const res = await lite.call("POST", "/api/publish");
    expect(res.status).toBe(402);
    expect((await res.json()).error.details.features).toEqual(["premium_themes", "seo_settings"]);
  });

  it("refuses signed-out and cross-origin requests", async () => {
    expect((await t.app.request("/api/publish", { method: "POST", headers: { "Sec-Fetch-Site": "same-origin", Origin: TEST_ORIGIN } })).status).toBe(401);
    const cross = await t.app.request("/api/publish", {
      method: "POST",
      headers: { Cookie: owner.cookie, "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" },
    });
    expect(cross.status).toBe(403);
    expect(existsSync(pageFile(owner.username))).toBe(false);
  });
});

describe("files on disk", () => {
  const dirOf = (u: string) => join(t.deps.env.PUBLISHED_DIR, u);

  it("writes index.html, the QR code and a contact card, index.html last with the publish time", async () => {
    addLink(owner.userId, "card", { linkType: "vcf", url: "#", linkSpecificData: { name: "Ada Lovelace", phone: "+15550100" } });
    const before = Date.now();
    expect((await owner.call("POST", "/api/publish")).status).toBe(200);
    // No compressed copies beside them: whoever serves the page compresses it (ADR 121).
    const files = readdirSync(dirOf(owner.username)).sort();
    const qr = qrFileName(`${TEST_ORIGIN}/${owner.username}`);
    expect(files).toEqual([expect.stringMatching(/^contact-[0-9a-z]+\.vcf$/), "index.html", qr]);
    const html = readFileSync(join(dirOf(owner.username), "index.html"), "utf8");
    expect(html).toContain(`href="/${owner.username}/${files[0]}"`);
    expect(html).toContain(`src="/${owner.username}/${qr}"`);
    expect(readFileSync(join(dirOf(owner.username), files[0]!), "utf8")).toContain("FN:Ada Lovelace");
    expect(readFileSync(join(dirOf(owner.username), qr), "utf8")).toContain(`${TEST_ORIGIN}/${owner.username}`);
    const mtime = statSync(join(dirOf(owner.username), "index.html")).mtimeMs;
    expect(mtime).toBeGreaterThanOrEqual(before - 1);
    expect(readFileSync(join(t.deps.env.PUBLISHED_DIR, "sitemap.xml"), "utf8")).toContain(`<loc>${TEST_ORIGIN}/${owner.username}</loc>`);
  });

  it("leaves every file alone for an unchanged draft, and rewrites only what changed", async () => {
    const card = addLink(owner.userId, "card", { linkType: "vcf", url: "#", linkSpecificData: { name: "First Name" } });
    await owner.call("POST", "/api/publish");
    const dir = dirOf(owner.username);
    const ino = (f: string) => statSync(join(dir, f)).ino;
    const firstCard = readdirSync(dir).find((f) => f.endsWith(".vcf"))!;
    const qr = qrFileName(`${TEST_ORIGIN}/${owner.username}`);
    const [index1, qr1] = [ino("index.html"), ino(qr)];
    expect(await (await owner.call("POST", "/api/publish")).json()).toEqual({ version: 1, changed: false });
    expect([ino("index.html"), ino(qr)]).toEqual([index1, qr1]);

    t.deps.db.update(links).set({ linkSpecificData: { name: "Second Name" } }).where(eq(links.id, card)).run();
    expect(await (await owner.call("POST", "/api/publish")).json()).toEqual({ version: 2, changed: true });
    expect(ino("index.html")).not.toBe(index1);
    expect(ino(qr)).toBe(qr1);
    const cards = readdirSync(dir).filter((f) => f.endsWith(".vcf"));
    const secondCard = cards.find((f) => f !== firstCard)!;
    // The old card stays: a visitor holding the old page still downloads what it showed.
    expect(cards.sort()).toEqual([firstCard, secondCard].sort());
    expect(readFileSync(join(dir, secondCard), "utf8")).toContain("FN:Second Name");
    expect(readFileSync(join(dir, "index.html"), "utf8")).toContain(secondCard);
  });

  it("never writes into a file a reader holds: the old page reads byte for byte across later publishes, a discard and a rollback (ADR 097)", async () => {
    const base = Date.now();
    let minutes = 0;
    // Far apart in the server's clock (the old file reuse waited 10 s), and within the write budget (ADR 093).
    t.deps.now = () => new Date(base + minutes * 60_000);
    await owner.call("POST", "/api/publish");
    const page = join(dirOf(owner.username), "index.html");
    const held = [page].map((f) => ({ fd: openSync(f, "r"), bytes: readFileSync(f) }));
    const readHeld = (fd: number, size: number) => {
      const buf = Buffer.alloc(size + 1);
      return buf.subarray(0, readSync(fd, buf, 0, buf.length, 0));
    };
    try {
      for (let i = 0; i < 8; i++) {
        minutes += 1;
        t.deps.db.update(userProfiles).set({ displayName: `Version ${i}` }).where(eq(userProfiles.userId, owner.userId)).run();
        expect((await owner.call("POST", "/api/publish")).status).toBe(200);
        for (const h of held) expect(readHeld(h.fd, h.bytes.length).equals(h.bytes)).toBe(true);
      }
      minutes += 1;
      t.deps.db.update(userProfiles).set({ displayName: "Unpublished" }).where(eq(userProfiles.userId, owner.userId)).run();
      expect((await owner.call("POST", "/api/publish/discard")).status).toBe(200);
      minutes += 1;
      expect((await owner.call("POST", "/api/publish/rollback", { version: 2 })).status).toBe(200);
      expect(readFileSync(page, "utf8")).toContain("Version 0");
      for (const h of held) expect(readHeld(h.fd, h.bytes.length).equals(h.bytes)).toBe(true);
    } finally {
      for (const h of held) closeSync(h.fd);
    }
  });

  it("leaves no file behind but the page, and never serves a dot file such as an interrupted swap's temporary file", async () => {
    await owner.call("POST", "/api/publish");
    t.deps.db.update(userProfiles).set({ displayName: "Second Version" }).where(eq(userProfiles.userId, owner.userId)).run();
    await owner.call("POST", "/api/publish");
    expect(readdirSync(dirOf(owner.username)).filter((f) => f.startsWith("."))).toEqual([]);
    // What a swap killed half-way leaves: a temporary dot file beside the page.
    writeFileSync(join(dirOf(owner.username), ".tmp-left"), "Second Version");
    for (const path of [`/${owner.username}/.tmp-left`, `/${owner.username}/.tmp-left/`, `/${owner.username}/%2Etmp-left`]) {
      const res = await t.app.request(path);
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toContain("Second Version");
    }
  });

  it("rewrites a page whose files went missing even when the draft is unchanged", async () => {
    await owner.call("POST", "/api/publish");
    rmSync(join(dirOf(owner.username), "index.html"));
    expect(await (await owner.call("POST", "/api/publish")).json()).toEqual({ version: 1, changed: false });
    expect(existsSync(join(dirOf(owner.username), "index.html"))).toBe(true);
  });
});

describe("draft state and discard", () => {
  it("restores profile, links and social links exactly, ids preserved", async () => {
    setName(owner.userId, "Before");
    const kept = addLink(owner.userId, "kept");
    const socialId = newId();
    t.deps.db.insert(socialLinks).values({ id: socialId, userId: owner.userId, platform: "github", url: "https://github.com/ada" }).run();
    await owner.call("POST", "/api/publish");
    const published = loadDraft(t.deps.db, owner.userId)!.snapshot;

    setName(owner.userId, "<script>alert(1)</script>");
    t.deps.db.delete(links).where(eq(links.id, kept)).run();
    addLink(owner.userId, "extra");
    t.deps.db.update(socialLinks).set({ url: "https://github.com/other" }).where(eq(socialLinks.id, socialId)).run();
    expect((await (await owner.call("GET", "/api/publish/state")).json()).hasUnpublishedChanges).toBe(true);

    const res = await owner.call("POST", "/api/publish/discard");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      message: "Draft changes have been discarded",
      description: "Your draft has been reverted to the last published version.",
    });
    expect(loadDraft(t.deps.db, owner.userId)!.snapshot).toEqual(published);
    expect((await (await owner.call("GET", "/api/publish/state")).json()).hasUnpublishedChanges).toBe(false);
  });

  it("answers 'Failed to discard changes' when nothing was published", async () => {
    const res = await owner.call("POST", "/api/publish/discard");
    expect(res.status).toBe(409);
    expect((await res.json()).error.message).toBe("Failed to discard changes");
  });

  it("restores lists, list membership, order, visibility and appearance", async () => {
    const listId = newId();
    t.deps.db.insert(linkLists).values({ id: listId, userId: owner.userId, title: "Shop", orderIndex: 0 }).run();
    const a = addLink(owner.userId, "a", { parentListId: listId, orderIndex: 0 });
    const b = addLink(owner.userId, "b", { orderIndex: 1, isActive: false });
    t.deps.db.update(userProfiles).set({ selectedThemeName: "ocean-blue", buttonShapeStyle: "pill", qrCodeVisible: false }).where(eq(userProfiles.userId, owner.userId)).run();
    await owner.call("POST", "/api/publish");
    const published = loadDraft(t.deps.db, owner.userId)!.snapshot;

    t.deps.db.delete(linkLists).where(eq(linkLists.id, listId)).run();
    t.deps.db.update(links).set({ orderIndex: 5, isActive: true }).where(eq(links.id, b)).run();
    t.deps.db.update(links).set({ title: "renamed" }).where(eq(links.id, a)).run();
    t.deps.db.update(userProfiles).set({ selectedThemeName: "neon-dark", buttonShapeStyle: "box", qrCodeVisible: true }).where(eq(userProfiles.userId, owner.userId)).run();
    expect((await owner.call("POST", "/api/publish/discard")).status).toBe(200);
    expect(loadDraft(t.deps.db, owner.userId)!.snapshot).toEqual(published);
  });

  it("moves the profile's updated_at so open dashboards see the discard", async () => {
    await owner.call("POST", "/api/publish");
    t.deps.db.update(userProfiles).set({ bio: "changed", updatedAt: new Date(1000) }).where(eq(userProfiles.userId, owner.userId)).run();
    await owner.call("POST", "/api/publish/discard");
    const row = t.deps.db.select().from(userProfiles).where(eq(userProfiles.userId, owner.userId)).get()!;
    expect(row.updatedAt.getTime()).toBeGreaterThan(1000);
  });

  it("compares content, not timestamps: an edit undone by hand leaves no unpublished changes", async () => {
    setName(owner.userId, "Same");
    await owner.call("POST", "/api/publish");
    setName(owner.userId, "Different");
    expect((await (await owner.call("GET", "/api/publish/state")).json()).hasUnpublishedChanges).toBe(true);
    t.deps.db.update(userProfiles).set({ displayName: "Same", updatedAt: new Date(Date.now() + 60_000) }).where(eq(userProfiles.userId, owner.userId)).run();
    expect((await (await owner.call("GET", "/api/publish/state")).json()).hasUnpublishedChanges).toBe(false);
  });

  it("reports unpublished changes before the first publish", async () => {
    const state = await (await owner.call("GET", "/api/publish/state")).json();
    expect(state).toMatchObject({ hasUnpublishedChanges: true, hasPublishedPage: false, version: null, lastPublishedAt: null });
  });
});

describe("versions and rollback", () => {
  it("lists versions and re-publishes an older one", async () => {
    setName(owner.userId, "Version One");
    await owner.call("POST", "/api/publish");
    setName(owner.userId, "Version Two");
    await owner.call("POST", "/api/publish");
    const { versions } = await (await owner.call("GET", "/api/publish/versions")).json();
    expect(versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);

    const res = await owner.call("POST", "/api/publish/rollback", { version: 1 });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ version: 3, changed: true });
    expect(readFileSync(pageFile(owner.username), "utf8")).toContain("Version One");
    expect(loadDraft(t.deps.db, owner.userId)!.snapshot.profile.displayName).toBe("Version One");
  });

  it("re-publishes any of the last 20 versions and no older one", async () => {
    for (let i = 1; i <= 22; i++) {
      setName(owner.userId, `Version ${i}`);
      expect((await owner.call("POST", "/api/publish")).status).toBe(200);
    }
    const { versions } = await (await owner.call("GET", "/api/publish/versions")).json();
    expect(versions.map((v: { version: number }) => v.version)).toEqual(Array.from({ length: 20 }, (_, i) => 22 - i));
    expect((await owner.call("POST", "/api/publish/rollback", { version: 2 })).status).toBe(404);
    expect(loadDraft(t.deps.db, owner.userId)!.snapshot.profile.displayName).toBe("Version 22");
    const res = await owner.call("POST", "/api/publish/rollback", { version: 3 });
    expect(await res.json()).toEqual({ version: 23, changed: true });
    expect(readFileSync(pageFile(owner.username), "utf8")).toContain("Version 3");
  });

  it("refuses a version the plan no longer allows, leaving the draft as it was", async () => {
    addLink(owner.userId, "main", { isMainButton: true });
    await owner.call("POST", "/api/publish");
    t.deps.db.delete(links).where(eq(links.userId, owner.userId)).run();
    setName(owner.userId, "Lite draft");
    await owner.call("POST", "/api/publish");
    // The trial ends.
    t.deps.db.update(userProfiles).set({ trialEndsAt: new Date(Date.now() - 1000) }).where(eq(userProfiles.userId, owner.userId)).run();
    const res = await owner.call("POST", "/api/publish/rollback", { version: 1 });
    expect(res.status).toBe(402);
    expect((await res.json()).error.details.features).toEqual(["main_button"]);
    expect(loadDraft(t.deps.db, owner.userId)!.snapshot.profile.displayName).toBe("Lite draft");
    expect(loadDraft(t.deps.db, owner.userId)!.snapshot.links).toEqual([]);
  });

  it("refuses another owner's versions with 404 and changes nothing", async () => {
    setName(owner.userId, "Mine");
    await owner.call("POST", "/api/publish");
    const other = createApiOwner(t, "trial");
    setName(other.userId, "Other draft");
    const res = await other.call("POST", "/api/publish/rollback", { version: 1 });
    expect(res.status).toBe(404);
    expect(loadDraft(t.deps.db, other.userId)!.snapshot.profile.displayName).toBe("Other draft");
    expect(existsSync(pageFile(other.username))).toBe(false);
    expect((await (await other.call("GET", "/api/publish/versions")).json()).versions).toEqual([]);
  });

  it.each([
    ["missing version", {}],
    ["string version", { version: "1" }],
    ["script", { version: "<script>alert(1)</script>" }],
    ["negative", { version: -1 }],
    ["fraction", { version: 1.5 }],
    ["huge", { version: 1e20 }],
    ["extra field", { version: 1, userId: "someone-else" }],
    ["malformed JSON", "{version:"],
    ["oversized", { version: 1, pad: "x".repeat(200_000) }],
  ])("answers 400 for %s", async (_name, body) => {
    await owner.call("POST", "/api/publish");
    const res = await owner.call("POST", "/api/publish/rollback", body);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect((await res.json()).error.message).toEqual(expect.any(String));
    expect((await (await owner.call("GET", "/api/publish/versions")).json()).versions).toHaveLength(1);
  });
});
