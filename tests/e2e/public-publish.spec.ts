/**
 * The publish pipeline seen from a browser: preview access, scheduled links and a trial's end
 * re-rendered by the server with nobody publishing, and a page served by nginx whose visitor script
 * calls the API on another origin. A boundary is made to come by moving it, and the job due then,
 * into the past in the database (tests/support/page-boundary.ts); when each one runs on the clock is
 * tested against the job queue's injected clock (tests/api/page-schedule.test.ts).
 */
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { and, eq } from "drizzle-orm";
import type { BrowserContext, Page } from "@playwright/test";
import { analyticsEvents, links, pageReports, socialLinks, userProfiles } from "#db/schema.ts";
import { newId } from "#db/ids.ts";
import { PLATFORM_IDS } from "#core/platforms.ts";
import { publishPage } from "#renderer/publish.ts";
import { startStaticHost, type StaticHost } from "#tests/support/nginx.ts";
import { linkBoundaryNow, trialEndNow } from "#tests/support/page-boundary.ts";
import { E2E } from "./env.ts";
import { createOwner, e2eDb, expect, signInAs, test, type TestOwner } from "./fixtures.ts";

const outbox = () => (existsSync(E2E.outboxDir) ? readdirSync(E2E.outboxDir).filter((f) => f.endsWith(".eml")).map((f) => readFileSync(join(E2E.outboxDir, f), "utf8")) : []);
const addLink = (owner: TestOwner, v: Partial<typeof links.$inferInsert>) =>
  e2eDb().insert(links).values({ id: newId(), userId: owner.userId, title: "Link", url: "https://example.com/", orderIndex: 0, ...v }).run();

/** Publish through the server's API, as the dashboard's Publish button does. */
async function publishViaApi(context: BrowserContext, owner: TestOwner) {
  await signInAs(context, owner);
  const res = await context.request.post("/api/publish", { headers: { Origin: E2E.origin } });
  expect(res.status()).toBe(200);
  return res.json();
}

/** Reload until the page shows (or stops showing) a text; the server's job worker re-renders it. */
async function eventually(page: Page, path: string, check: () => Promise<void>) {
  await expect(async () => {
    await page.goto(path);
    await check();
  }).toPass({ timeout: 30_000, intervals: [250, 500, 1000] });
}

test.describe("preview", () => {
  test("the signed-in owner sees the draft with a banner; anyone else gets the 404 page", async ({ page, browser, context }) => {
    const owner = await createOwner({ plan: "plus" });
    e2eDb().update(userProfiles).set({ displayName: "Published Name" }).where(eq(userProfiles.userId, owner.userId)).run();
    await publishViaApi(context, owner);
    e2eDb().update(userProfiles).set({ displayName: "Draft Name" }).where(eq(userProfiles.userId, owner.userId)).run();

    for (const path of [`/${owner.username}/preview`, `/${owner.username}?preview=true`]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: "Draft Name" })).toBeVisible();
      await expect(page.getByRole("status").filter({ hasText: "Preview: this is your unpublished draft." })).toBeVisible();
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex,nofollow");
    }
    await page.goto(`/${owner.username}`);
    await expect(page.getByRole("heading", { level: 1, name: "Published Name" })).toBeVisible();
    await expect(page.getByText("Preview: this is your unpublished draft.")).toHaveCount(0);

    const stranger = await browser.newContext();
    const other = await createOwner();
    const signedInOther = await browser.newContext();
    await signInAs(signedInOther, other);
    for (const ctx of [stranger, signedInOther]) {
      const p = await ctx.newPage();
      const res = await p.goto(`/${owner.username}/preview`);
      expect(res?.status()).toBe(404);
      await expect(p.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
      await expect(p.getByText("Draft Name")).toHaveCount(0);
      await ctx.close();
    }
  });
});

test.describe("scheduled rebuilds by the server", () => {
  test("a scheduled link appears at its start and disappears at its end, with nobody publishing", async ({ page, context }) => {
    const owner = await createOwner();
    const start = Date.now() + 3_600_000;
    addLink(owner, { title: "Always here", orderIndex: 0 });
    addLink(owner, { title: "Flash sale", url: "https://example.com/sale", orderIndex: 1, scheduleStartTime: new Date(start), scheduleEndTime: new Date(start + 3_600_000) });
    await publishViaApi(context, owner);
    await page.goto(`/${owner.username}`);
    await expect(page.getByRole("link", { name: "Always here" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Flash sale" })).toHaveCount(0);
    linkBoundaryNow(e2eDb(), owner.userId, "Flash sale", "scheduleStartTime");
    await eventually(page, `/${owner.username}`, () => expect(page.getByRole("link", { name: "Flash sale" })).toBeVisible({ timeout: 1000 }));
    linkBoundaryNow(e2eDb(), owner.userId, "Flash sale", "scheduleEndTime");
    await eventually(page, `/${owner.username}`, () => expect(page.getByRole("link", { name: "Flash sale" })).toHaveCount(0, { timeout: 1000 }));
    await expect(page.getByRole("link", { name: "Always here" })).toBeVisible();
  });

  test("when the trial ends the page shows what Plinth Lite shows, and the owner is told", async ({ page, context }) => {
    const owner = await createOwner();
    const db = e2eDb();
    db.update(userProfiles).set({ trialEndsAt: new Date(Date.now() + 3_600_000), removeBranding: true, longFormText: "Trial-only about text" }).where(eq(userProfiles.userId, owner.userId)).run();
    for (let i = 0; i < 9; i++) addLink(owner, { title: `Trial link ${i}`, url: `https://example.com/${i}`, orderIndex: i });
    PLATFORM_IDS.slice(0, 6).forEach((platform, i) => db.insert(socialLinks).values({ id: newId(), userId: owner.userId, platform, url: `https://example.com/${platform}`, displayOrder: i + 1 }).run());
    await publishViaApi(context, owner);
    await page.goto(`/${owner.username}`);
    await expect(page.getByRole("link", { name: /^Trial link/ })).toHaveCount(9);
    await expect(page.getByRole("list", { name: "Social links" }).getByRole("link")).toHaveCount(6);
    await expect(page.getByText("Powered by Plinth")).toHaveCount(0);

    trialEndNow(db, owner.userId);
    await eventually(page, `/${owner.username}`, () => expect(page.getByText("Powered by Plinth")).toBeVisible({ timeout: 1000 }));
    await expect(page.getByRole("link", { name: /^Trial link/ })).toHaveCount(7);
    await expect(page.getByRole("list", { name: "Social links" }).getByRole("link")).toHaveCount(4);
    await expect(page.getByText("Trial-only about text")).toHaveCount(0);
    await expect.poll(() => outbox().some((m) => m.includes(owner.email) && m.includes("Your Plinth Plus trial has ended"))).toBe(true);
  });
});

test.describe("any static host", () => {
  let host: StaticHost;
  test.beforeAll(async () => {
    host = await startStaticHost();
    const notFound = resolve(import.meta.dirname, "../../dist/404.html");
    if (existsSync(notFound)) copyFileSync(notFound, join(host.root, "404.html"));
    else writeFileSync(join(host.root, "404.html"), "<!doctype html><title>Page Not Found</title><h1>Page Not Found</h1>");
  });
  test.afterAll(() => host?.stop());

  test("nginx serves the page and its files; its visitor script calls the API origin", async ({ page }) => {
    const owner = await createOwner({ plan: "plus" });
    const db = e2eDb();
    db.update(userProfiles).set({ displayName: "On A Static Host", customFontPairingName: "creative-display" }).where(eq(userProfiles.userId, owner.userId)).run();
    addLink(owner, { title: "Contact card", url: "#", linkType: "vcf", linkSpecificData: { name: "Static Person" } });
    // Pages live on the static host; the API stays on the Plinth server.
    expect(publishPage(db, owner.userId, { publishedDir: host.root, origin: host.origin, apiOrigin: E2E.origin, now: new Date() }).ok).toBe(true);

    const failures: string[] = [];
    page.on("requestfailed", (r) => failures.push(`${r.url()} ${r.failure()?.errorText}`));
    page.on("console", (m) => m.type() === "error" && failures.push(m.text()));
    page.on("response", (r) => r.status() >= 400 && failures.push(`${r.status()} ${r.url()}`));
    const track = page.waitForResponse((r) => r.url() === `${E2E.origin}/api/visitor/track`);
    const res = await page.goto(`${host.origin}/${owner.username}`);
    expect(res?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: "On A Static Host" })).toBeVisible();
    // The pairing's fonts come from the static host itself.
    await expect.poll(() => page.evaluate(() => [...document.fonts].filter((f) => f.status === "loaded").map((f) => f.family.replace(/"/g, "")))).toContain("Nunito");
    expect((await track).status()).toBe(204);
    await expect
      .poll(() => db.select().from(analyticsEvents).where(and(eq(analyticsEvents.userId, owner.userId), eq(analyticsEvents.kind, "page_view"))).all().length)
      .toBe(1);

    await page.getByRole("button", { name: "Accept All" }).click();
    await page.getByRole("button", { name: "Show QR code" }).click();
    const qr = page.getByRole("dialog", { name: "QR Code" }).getByRole("img");
    await expect.poll(() => qr.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBeGreaterThan(0);
    await page.keyboard.press("Escape");

    await page.getByRole("button", { name: "Report", exact: true }).click();
    const report = page.getByRole("dialog", { name: "Report this page" });
    await report.getByLabel("Reason").selectOption("spam");
    await report.getByRole("button", { name: "Submit Report" }).click();
    // Until the toast shows, or a request fails: then the failure is what the test reports.
    await expect.poll(async () => (failures.length ? failures : page.getByRole("status").filter({ hasText: "Report submitted" }).isVisible())).toBe(true);
    expect(db.select().from(pageReports).where(eq(pageReports.reportedPageUsername, owner.username)).all()).toHaveLength(1);
    expect(failures).toEqual([]);

    const missing = await page.goto(`${host.origin}/nobody_${owner.username.slice(-6)}`);
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
  });
});
