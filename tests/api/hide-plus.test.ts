/**
 * "Hide Plus items and publish" hides by the plan and never changes the draft (ADR 136): the page is
 * published as it is, rendered under Lite, with the owner's consent to exactly the listed hides
 * recorded on the version; the draft keeps everything, so a render under Plus shows it all again.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { and, desc, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { publishGate } from "#core/publish-gate.ts";
import type { PagePlan, PageSnapshot } from "#core/model.ts";
import { newId } from "#db/ids.ts";
import { linkLists, links, pageVersions, socialLinks, userProfiles } from "#db/schema.ts";
import { ensureSharedAssets } from "#renderer/assets.ts";
import { loadDraft, restoreDraft } from "#renderer/draft.ts";
import { pageWrites } from "#renderer/page-writes.ts";
import { pagesOrigin } from "#api/env.server.ts";
import { enqueueJob } from "#api/jobs/queue.ts";
import { createServerApp } from "#api/site.ts";
import { createTestApp, sameOrigin, TEST_ORIGIN, type TestApp } from "#tests/support/app.ts";
import { subscribe, tick } from "#tests/support/billing.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";
import { itemKey, planPage, seenDifference } from "../unit/core/plan-pages.ts";
import { NOW, PLUS } from "../unit/renderer/fixtures.ts";
import { seen } from "../unit/renderer/page-seen.ts";

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const HOUR = 3_600_000;
const pageFile = (o: ApiOwner) => join(t.deps.env.PUBLISHED_DIR, o.username, "index.html");
const state = async (o: ApiOwner) => (await o.call("GET", "/api/publish/state")).json();
const profileRow = (o: ApiOwner) => t.deps.db.select().from(userProfiles).where(eq(userProfiles.userId, o.userId)).get()!;

/** The page as a publish renders it, with the app's origins, under `plan` at `when`. */
function pageHtml(snapshot: PageSnapshot, plan: PagePlan, when: Date): string {
  const { env } = t.deps;
  const opts = { publishedDir: env.PUBLISHED_DIR, origin: env.PUBLIC_ORIGIN, pagesOrigin: pagesOrigin(env), now: when, assets: ensureSharedAssets(env.PUBLISHED_DIR) };
  return pageWrites(snapshot, plan, opts).at(-1)!.content as string;
}

/** Everything of the owner's draft as stored, byte for byte: the page's rows, and the profile without what a publish records. */
function draftRows(o: ApiOwner): string {
  const { hasPublishedPage: _h, lastPublishedAt: _l, plusItemsState: _s, ...profile } = profileRow(o);
  const rows = <T,>(table: T) => t.deps.db.select().from(table as typeof links).where(eq((table as typeof links).userId, o.userId)).all();
  return JSON.stringify({ profile, links: rows(links), lists: rows(linkLists), social: rows(socialLinks) });
}

function addLink(o: ApiOwner, title: string, extra: Partial<typeof links.$inferInsert> = {}): string {
  const id = newId();
  t.deps.db.insert(links).values({ id, userId: o.userId, title, url: `https://example.com/${title}`, orderIndex: 1, ...extra }).run();
  return id;
}

/** A Lite owner (trial over) whose draft holds every kind of Plus item. */
function liteOwnerWithPlusItems(): ApiOwner {
  const o = createApiOwner(t, "lite");
  const now = t.deps.now().getTime();
  addLink(o, "Shop", { isMainButton: true, orderIndex: 0 });
  addLink(o, "Card", { linkType: "vcf", url: "#", linkSpecificData: { name: "Ada" }, orderIndex: 1 });
  addLink(o, "Sale", { scheduleStartTime: new Date(now - HOUR), scheduleEndTime: new Date(now + 24 * HOUR), thumbnailUrl: "/media/ab/sale.webp", orderIndex: 2 });
  addLink(o, "Blog", { orderIndex: 3 });
  t.deps.db
    .update(userProfiles)
    .set({ longFormText: "A".repeat(763), selectedThemeName: "ocean-blue", seoTitle: "Ada's page", seoDescription: "Everything Ada makes", removeBranding: true, customFontPairingName: "elegant-serif" })
    .where(eq(userProfiles.userId, o.userId))
    .run();
  return o;
}

describe("POST /api/publish/hide-plus", () => {
  it("publishes the draft as it is under Lite: the page is a Lite page, the draft is byte for byte the same, the consent is on the version", async () => {
    const o = liteOwnerWithPlusItems();
    const before = draftRows(o);
    const s = await state(o);
    expect(s.blockedFeatures).toEqual(["vcf", "scheduling", "main_button", "long_form_text", "premium_themes", "custom_fonts", "remove_branding", "seo_settings"]);
    expect(s.plusChanges.map((c: { text: string }) => c.text)).toEqual([
      "“Card” will be hidden (Contact Card links need Plus)",
      "“Sale” will be hidden (scheduled links need Plus)",
      "“Shop” will show as an ordinary link, not the main button",
      "Your long-form text will be hidden",
      "Your theme, Ocean Blue, will show as Minimalist Light",
      "Your font pairing will show as the theme's fonts",
      "“Powered by Plinth” will show at the foot of your page",
      "Your SEO title will not be used (search results show your name)",
      "Your meta description will not be used (search results show your bio)",
    ]);

    const res = await o.call("POST", "/api/publish/hide-plus", { hide: s.blockedFeatures });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ version: 1, changed: true });
    expect(draftRows(o)).toBe(before);

    const html = readFileSync(pageFile(o), "utf8");
    expect(html).toContain("Shop");
    expect(html).toContain("Blog");
    expect(html).not.toContain("Card");
    expect(html).not.toContain("Sale");
    expect(html).not.toContain("AAAA");
    expect(html).not.toContain("Ada's page");
    expect(html).toContain("Powered by Plinth");
    expect(html).not.toContain('class="btn main"');

    const version = t.deps.db.select().from(pageVersions).where(eq(pageVersions.userId, o.userId)).get()!;
    expect(version.hiddenByPlan).toEqual(s.blockedFeatures);
    expect(version.plan).toMatchObject({ planType: "lite" });
    // Nothing to publish or discard: the draft is what was published.
    expect(await state(o)).toMatchObject({ hasUnpublishedChanges: false, plusItemsBack: false });
    expect(profileRow(o).plusItemsState).toBe("hidden");
  });

  it("over generated pages: the dialog lists exactly what a visitor stops seeing between the draft's Plus page and the page the publish wrote, and the draft never changes", async () => {
    // The generated schedules are set about NOW: the app's clock stands there. The other seeds go
    // through the renderer alone (tests/unit/core/plan-hides.test.ts).
    const at = NOW;
    t.deps.now = () => at;
    const app = createServerApp({ ...t.deps, now: () => at });
    const kinds = new Set<string>();
    for (let seed = 1; seed <= 16; seed++) {
      const owner = createApiOwner(t, "lite");
      const o = { ...owner, call: async (method: string, path: string, body?: unknown) => app.request(path, { method, headers: sameOrigin({ Cookie: owner.cookie }), ...(body === undefined ? {} : { body: JSON.stringify(body) }) }) };
      const page = planPage(seed);
      // Links point only at lists that exist, and a schedule ends after it starts (the database keeps to both).
      const known = new Set(page.lists.map((l) => l.id));
      const ends = (l: (typeof page.links)[number]) => (l.scheduleStartTime && l.scheduleEndTime && l.scheduleEndTime <= l.scheduleStartTime ? null : l.scheduleEndTime);
      const s = { ...page, links: page.links.map((l) => ({ ...l, id: newId(), scheduleEndTime: ends(l), parentListId: l.parentListId && known.has(l.parentListId) ? l.parentListId : null })) };
      restoreDraft(t.deps.db, o.userId, { ...s, profile: { ...s.profile, username: o.username } }, at);
      const draft = loadDraft(t.deps.db, o.userId)!;
      const before = draftRows(o);
      const listed = await state(o);
      const gate = publishGate(draft.snapshot, draft.plan, at);
      const res = await o.call("POST", "/api/publish/hide-plus", { hide: gate.ok ? ["unlimited_links"] : gate.features });
      expect(res.status, `seed ${seed}`).toBe(200);
      expect(draftRows(o), `seed ${seed}`).toBe(before);
      const html = (plan: PagePlan, when: Date) => pageHtml(draft.snapshot, plan, when);
      const stops = seenDifference(draft.snapshot, at, html(PLUS, at), readFileSync(pageFile(o), "utf8"), html, `seed ${seed}`);
      expect(listed.plusChanges.map(itemKey).sort(), `seed ${seed}`).toEqual(stops);
      for (const c of listed.plusChanges) kinds.add(c.kind);
    }
    // These seeds reach every kind of item the dialog lists.
    expect([...kinds].sort()).toEqual(["branding", "font", "later", "link", "list", "long_form_text", "main", "seo_description", "seo_title", "social", "theme", "thumbnail"]);
  });

  it("refuses with 409 and publishes nothing when the draft needs more hides than the owner agreed to", async () => {
    const o = liteOwnerWithPlusItems();
    const res = await o.call("POST", "/api/publish/hide-plus", { hide: ["vcf", "scheduling"] });
    expect(res.status).toBe(409);
    const body = await res.json();
    expect(body.error.message).toBe("Your draft changed since you opened this dialog. Check the list and try again.");
    expect(body.error.details.features).toContain("premium_themes");
    expect(t.deps.db.select().from(pageVersions).where(eq(pageVersions.userId, o.userId)).all()).toEqual([]);
  });

  it("publishes an unblocked draft as an ordinary publish, and a Plus owner's items all show", async () => {
    const o = createApiOwner(t, "plus");
    addLink(o, "Shop", { isMainButton: true });
    const res = await o.call("POST", "/api/publish/hide-plus", { hide: ["main_button"] });
    expect(res.status).toBe(200);
    expect(readFileSync(pageFile(o), "utf8")).toContain('class="btn main"');
    expect(t.deps.db.select().from(pageVersions).where(eq(pageVersions.userId, o.userId)).get()!.hiddenByPlan).toBeNull();
  });

  it("touches nothing on a suspended page", async () => {
    const o = liteOwnerWithPlusItems();
    t.deps.db.update(userProfiles).set({ pageSuspendedAt: new Date() }).where(eq(userProfiles.userId, o.userId)).run();
    const before = draftRows(o);
    const res = await o.call("POST", "/api/publish/hide-plus", { hide: (await state(o)).blockedFeatures });
    expect(res.status).toBe(403);
    expect(draftRows(o)).toBe(before);
  });

  it.each([
    ["no body", undefined],
    ["an empty list", { hide: [] }],
    ["an unknown feature", { hide: ["<script>alert(1)</script>"] }],
    ["a string", { hide: "vcf" }],
    ["an extra field", { hide: ["vcf"], userId: "someone-else" }],
    ["malformed JSON", "{hide:"],
    ["an oversized list", { hide: Array.from({ length: 5000 }, () => "vcf") }],
  ])("answers 400 for %s, touching nothing", async (_name, body) => {
    const o = liteOwnerWithPlusItems();
    const before = draftRows(o);
    const res = await o.call("POST", "/api/publish/hide-plus", body);
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toEqual(expect.any(String));
    expect(draftRows(o)).toBe(before);
  });

  it("refuses signed-out and cross-origin callers, touching nothing", async () => {
    const o = liteOwnerWithPlusItems();
    const body = JSON.stringify({ hide: (await state(o)).blockedFeatures });
    const signedOut = await t.app.request("/api/publish/hide-plus", { method: "POST", headers: { Origin: TEST_ORIGIN, "Content-Type": "application/json" }, body });
    expect(signedOut.status).toBe(401);
    const forged = await t.app.request("/api/publish/hide-plus", {
      method: "POST",
      headers: { Cookie: o.cookie, "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example", "Content-Type": "application/json" },
      body,
    });
    expect(forged.status).toBe(403);
    expect(t.deps.db.select().from(pageVersions).where(eq(pageVersions.userId, o.userId)).all()).toEqual([]);
  });
});

describe("back on Plus", () => {
  it("an upgrade re-renders the last version with everything the plan hid, and the dashboard says so once", async () => {
    const o = liteOwnerWithPlusItems();
    await o.call("POST", "/api/publish/hide-plus", { hide: (await state(o)).blockedFeatures });
    expect(readFileSync(pageFile(o), "utf8")).not.toContain("Card");

    await subscribe(o);
    await tick(t);
    const html = readFileSync(pageFile(o), "utf8");
    for (const shown of ["Card", "Sale", "AAAA", "Ada's page", 'class="btn main"', "sale.webp"]) expect(html).toContain(shown);
    expect(html).not.toContain("Powered by Plinth");
    expect((await state(o)).plusItemsBack).toBe(true);

    const seen = await o.call("POST", "/api/publish/plus-items-back/seen");
    expect(seen.status).toBe(200);
    expect((await state(o)).plusItemsBack).toBe(false);
    // Once only: another render under Plus says nothing new.
    await o.call("POST", "/api/publish/plus-items-back/seen");
    expect((await state(o)).plusItemsBack).toBe(false);
  });

  // A trial is once per account, at signup (ADR 201): the product never starts one later. Whether a
  // page shows what the plan hid depends only on the plan being Plus, so an owner whose row says
  // "trialing" (set here as a fixture) gets it back as a subscriber does.
  it.each([
    ["the next publish", async (o: ApiOwner) => expect((await o.call("POST", "/api/publish")).status).toBe(200)],
    ["a re-render of the page, as a plan change queues", async (o: ApiOwner) => {
      enqueueJob(t.deps.db, { kind: "rerender", payload: { userId: o.userId } }, t.deps.now());
      await tick(t);
    }],
  ])("a trial brings back everything the plan hid on %s, as an upgrade does, and the dashboard says so once", async (_way, render) => {
    const o = liteOwnerWithPlusItems();
    await o.call("POST", "/api/publish/hide-plus", { hide: (await state(o)).blockedFeatures });
    expect(profileRow(o).plusItemsState).toBe("hidden");
    const now = t.deps.now();
    t.deps.db.update(userProfiles).set({ trialEndsAt: new Date(now.getTime() + 3 * 24 * HOUR) }).where(eq(userProfiles.userId, o.userId)).run();
    expect((await state(o)).blockedFeatures).toEqual([]);

    await render(o);
    const html = readFileSync(pageFile(o), "utf8");
    for (const shown of ["Card", "Sale", "AAAA", "Ada's page", 'class="btn main"', "sale.webp"]) expect(html).toContain(shown);
    expect(html).not.toContain("Powered by Plinth");
    // Everything: the page is the draft's Plus page, item by item.
    expect(seen(html)).toEqual(seen(pageHtml(loadDraft(t.deps.db, o.userId)!.snapshot, PLUS, now)));
    expect((await state(o)).plusItemsBack).toBe(true);
    expect((await o.call("POST", "/api/publish/plus-items-back/seen")).status).toBe(200);
    expect((await state(o)).plusItemsBack).toBe(false);
  });

  it("an item the owner removed meanwhile stays gone, and one they changed shows as changed, on the next publish", async () => {
    const o = liteOwnerWithPlusItems();
    await o.call("POST", "/api/publish/hide-plus", { hide: (await state(o)).blockedFeatures });
    t.deps.db.delete(links).where(and(eq(links.userId, o.userId), eq(links.title, "Card"))).run();
    t.deps.db.update(links).set({ title: "Big Sale" }).where(and(eq(links.userId, o.userId), eq(links.title, "Sale"))).run();
    await subscribe(o);
    await tick(t);
    expect((await o.call("POST", "/api/publish")).status).toBe(200);
    const html = readFileSync(pageFile(o), "utf8");
    expect(html).not.toContain("Card");
    expect(html).toContain("Big Sale");
    expect(html).toContain("AAAA");
  });

  // ADR 259: what the owner removed or changed meanwhile is withheld, as the Lite page showed it, until the next publish.
  const versionRow = (o: ApiOwner) => t.deps.db.select().from(pageVersions).where(eq(pageVersions.userId, o.userId)).orderBy(desc(pageVersions.version)).get()!;
  const upgrade = async (o: ApiOwner) => {
    await subscribe(o);
    await tick(t);
  };
  const trial = async (o: ApiOwner) => {
    t.deps.db.update(userProfiles).set({ trialEndsAt: new Date(t.deps.now().getTime() + 3 * 24 * HOUR) }).where(eq(userProfiles.userId, o.userId)).run();
    enqueueJob(t.deps.db, { kind: "rerender", payload: { userId: o.userId } }, t.deps.now());
    await tick(t);
  };
  it.each([
    ["an upgrade", upgrade],
    ["a trial's re-render", trial],
  ])("on %s, a hidden link deleted or edited in the draft meanwhile stays off the live page until the next publish; the rest is back", async (_way, toPlus) => {
    const o = liteOwnerWithPlusItems();
    await o.call("POST", "/api/publish/hide-plus", { hide: (await state(o)).blockedFeatures });
    t.deps.db.delete(links).where(and(eq(links.userId, o.userId), eq(links.title, "Card"))).run();
    t.deps.db.update(links).set({ title: "Big Sale" }).where(and(eq(links.userId, o.userId), eq(links.title, "Sale"))).run();

    await toPlus(o);
    const html = readFileSync(pageFile(o), "utf8");
    // Deleted: not on the page. Edited: not in its old form (nor in its new one before a publish).
    expect(html).not.toContain("Card");
    expect(html).not.toContain("Sale");
    expect(html).not.toContain("sale.webp");
    // Unchanged: back.
    for (const shown of ["AAAA", "Ada's page", "Everything Ada makes", 'class="btn main"', "Shop", "Blog"]) expect(html).toContain(shown);
    expect(html).not.toContain("Powered by Plinth");
    expect(seen(html).theme).toBe("ocean-blue");
    expect(seen(html).font).toBe("elegant-serif");
    expect(versionRow(o).withheldItems).toEqual([
      { kind: "link", id: expect.any(String) },
      { kind: "link", id: expect.any(String) },
    ]);
    expect((await state(o)).plusItemsBack).toBe(true);
    expect(profileRow(o).plusItemsState).toBe("back");

    // The next publish shows the draft as it is, and withholds nothing.
    expect((await o.call("POST", "/api/publish")).status).toBe(200);
    const after = readFileSync(pageFile(o), "utf8");
    expect(after).not.toContain("Card");
    expect(after).toContain("Big Sale");
    expect(after).toContain("sale.webp");
    expect(seen(after)).toEqual(seen(pageHtml(loadDraft(t.deps.db, o.userId)!.snapshot, PLUS, t.deps.now())));
    expect(versionRow(o).withheldItems).toBeNull();
  });

  it("a theme changed in the draft meanwhile: the live page keeps the Lite theme until the next publish", async () => {
    const o = liteOwnerWithPlusItems();
    await o.call("POST", "/api/publish/hide-plus", { hide: (await state(o)).blockedFeatures });
    expect(seen(readFileSync(pageFile(o), "utf8")).theme).toBe("minimalist-light");
    t.deps.db.update(userProfiles).set({ selectedThemeName: "royal-purple" }).where(eq(userProfiles.userId, o.userId)).run();
    await upgrade(o);
    const html = readFileSync(pageFile(o), "utf8");
    expect(seen(html).theme).toBe("minimalist-light");
    expect(html).toContain("Card");
    expect(versionRow(o).withheldItems).toEqual([{ kind: "theme" }]);
    expect(profileRow(o).plusItemsState).toBe("back");
    // Another re-render under Plus (a schedule boundary) keeps withholding it.
    enqueueJob(t.deps.db, { kind: "rerender", payload: { userId: o.userId } }, t.deps.now());
    await tick(t);
    expect(seen(readFileSync(pageFile(o), "utf8")).theme).toBe("minimalist-light");

    expect((await o.call("POST", "/api/publish")).status).toBe(200);
    expect(seen(readFileSync(pageFile(o), "utf8")).theme).toBe("royal-purple");
  });

  it("when the owner changed every hidden item meanwhile, nothing comes back and the dashboard does not say so", async () => {
    const o = createApiOwner(t, "lite");
    const card = addLink(o, "Card", { linkType: "vcf", url: "#", linkSpecificData: { name: "Ada" } });
    addLink(o, "Blog");
    await o.call("POST", "/api/publish/hide-plus", { hide: ["vcf"] });
    expect(profileRow(o).plusItemsState).toBe("hidden");
    t.deps.db.update(links).set({ title: "Contact" }).where(eq(links.id, card)).run();
    await upgrade(o);
    const html = readFileSync(pageFile(o), "utf8");
    expect(html).not.toContain("Card");
    expect(html).not.toContain("Contact");
    expect(versionRow(o).withheldItems).toEqual([{ kind: "link", id: card }]);
    expect(profileRow(o).plusItemsState).not.toBe("back");
    expect((await state(o)).plusItemsBack).toBe(false);
    // The draft is not what the live page shows: there is something to publish.
    expect((await state(o)).hasUnpublishedChanges).toBe(true);
  });

  it("after a discard the draft is the version again, and a publish still brings back what was withheld", async () => {
    const o = liteOwnerWithPlusItems();
    await o.call("POST", "/api/publish/hide-plus", { hide: (await state(o)).blockedFeatures });
    t.deps.db.delete(links).where(and(eq(links.userId, o.userId), eq(links.title, "Card"))).run();
    await upgrade(o);
    expect(readFileSync(pageFile(o), "utf8")).not.toContain("Card");
    expect((await o.call("POST", "/api/publish/discard")).status).toBe(200);
    expect((await state(o)).hasUnpublishedChanges).toBe(true);
    expect((await o.call("POST", "/api/publish")).status).toBe(200);
    expect(readFileSync(pageFile(o), "utf8")).toContain("Card");
    expect(versionRow(o).withheldItems).toBeNull();
    expect((await state(o)).hasUnpublishedChanges).toBe(false);
  });

  it("a lead magnet withheld is not mailed: the visitor gets the answer a hidden link gets", async () => {
    const o = createApiOwner(t, "lite");
    const data = { description: "Ten tips", fileUrl: "https://files.example/guide.pdf" };
    const kept = addLink(o, "Guide", { linkType: "lead_magnet", url: "#", linkSpecificData: data });
    const edited = addLink(o, "Checklist", { linkType: "lead_magnet", url: "#", linkSpecificData: data });
    const lead = async (linkId: string) => {
      const res = await t.app.request("/api/visitor/lead", { method: "POST", headers: { "Content-Type": "application/json", Origin: TEST_ORIGIN }, body: JSON.stringify({ linkId, email: "fan@example.com" }) });
      return { status: res.status, body: await res.json() };
    };
    await o.call("POST", "/api/publish/hide-plus", { hide: ["lead_magnet"] });
    const hidden = await lead(edited);
    expect(hidden.status).toBe(404);
    t.deps.db.update(links).set({ title: "Checklist (new)" }).where(eq(links.id, edited)).run();
    await upgrade(o);
    expect((await lead(kept)).status).toBe(200);
    expect(await lead(edited)).toEqual(hidden);
  });

  it("a Lite owner who removes the Plus items and publishes is not told they are back", async () => {
    const o = createApiOwner(t, "lite");
    const card = addLink(o, "Card", { linkType: "vcf", url: "#", linkSpecificData: { name: "Ada" } });
    await o.call("POST", "/api/publish/hide-plus", { hide: ["vcf"] });
    expect(profileRow(o).plusItemsState).toBe("hidden");
    t.deps.db.delete(links).where(eq(links.id, card)).run();
    expect((await o.call("POST", "/api/publish")).status).toBe(200);
    expect((await state(o)).plusItemsBack).toBe(false);
  });

  it("the notice route refuses signed-out and cross-origin callers", async () => {
    const signedOut = await t.app.request("/api/publish/plus-items-back/seen", { method: "POST", headers: sameOrigin({}) });
    expect(signedOut.status).toBe(401);
    const o = createApiOwner(t, "lite");
    const forged = await t.app.request("/api/publish/plus-items-back/seen", { method: "POST", headers: { Cookie: o.cookie, "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" } });
    expect(forged.status).toBe(403);
  });
});

describe("the long-form text's switch", () => {
  it("takes the text off the page and out of the gate, and keeps it", async () => {
    const o = createApiOwner(t, "lite");
    t.deps.db.update(userProfiles).set({ longFormText: "A text worth keeping" }).where(eq(userProfiles.userId, o.userId)).run();
    expect((await o.call("POST", "/api/publish")).status).toBe(402);
    const res = await o.edit("PATCH", "/api/profile/text", { longFormTextVisible: false });
    expect(res.status).toBe(200);
    expect((await res.json()).profile).toMatchObject({ longFormText: "A text worth keeping", longFormTextVisible: false });
    expect((await o.call("POST", "/api/publish")).status).toBe(200);
    expect(readFileSync(pageFile(o), "utf8")).not.toContain("A text worth keeping");
    // On Plus, switched on again, it shows.
    t.deps.db.update(userProfiles).set({ planType: "plus", subscriptionStatus: "active_plus", currentPeriodEndDate: new Date(Date.now() + 86_400_000) }).where(eq(userProfiles.userId, o.userId)).run();
    expect((await o.edit("PATCH", "/api/profile/text", { longFormTextVisible: true })).status).toBe(200);
    expect((await o.call("POST", "/api/publish")).status).toBe(200);
    expect(readFileSync(pageFile(o), "utf8")).toContain("A text worth keeping");
  });

  it.each([["a string", "false"], ["a number", 0], ["null", null]])("refuses %s with 400", async (_name, value) => {
    const o = createApiOwner(t, "trial");
    const res = await o.edit("PATCH", "/api/profile/text", { longFormTextVisible: value });
    expect(res.status).toBe(400);
    expect(profileRow(o).longFormTextVisible).toBe(true);
  });
});
