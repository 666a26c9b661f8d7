/**
 * History (issue 33, ADR 137): from the publish bar, the published versions with their time and what
 * changed; an older version restored into the draft and then published, another put live at once,
 * each after a confirmation; a version's preview as it was published; by keyboard, at 320 px, and
 * with axe at 0 violations on the list and its dialogs.
 */
import type { Page } from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { newId } from "#db/ids.ts";
import { links, pageVersions, userProfiles } from "#db/schema.ts";
import { expectNoAxeViolations } from "./axe.ts";
import { dialogReady } from "./dialogs.ts";
import { e2eDb, expect, test, type TestOwner } from "./fixtures.ts";

async function publishNow(page: Page): Promise<void> {
  const status = await page.evaluate(async () => (await fetch("/api/publish", { method: "POST", headers: { "Content-Type": "application/json" } })).status);
  expect(status).toBe(200);
}

/** Version 1: "First Name" with "Old Link"; version 2: "Second Name" with "New Link" instead. */
async function twoVersions(page: Page, owner: TestOwner): Promise<void> {
  const db = e2eDb();
  // Any page of the site will do for the same-origin publish calls; the dashboard loads once, after.
  await page.goto("/api/health");
  const old = newId();
  db.update(userProfiles).set({ displayName: "First Name" }).where(eq(userProfiles.userId, owner.userId)).run();
  db.insert(links).values({ id: old, userId: owner.userId, title: "Old Link", url: "https://example.com/old", orderIndex: 0 }).run();
  await publishNow(page);
  db.delete(links).where(eq(links.id, old)).run();
  db.insert(links).values({ id: newId(), userId: owner.userId, title: "New Link", url: "https://example.com/new", orderIndex: 0 }).run();
  db.update(userProfiles).set({ displayName: "Second Name" }).where(eq(userProfiles.userId, owner.userId)).run();
  await publishNow(page);
  await page.goto("/dashboard/links");
  await expect(page.getByRole("heading", { name: "Page Layout" })).toBeVisible();
}

// The list shows times in the browser's zone; a zone away from UTC shows it is not the server's.
test.use({ timezoneId: "America/New_York" });

const versionItem = (page: Page, n: number) => page.getByRole("dialog", { name: "History" }).getByRole("listitem", { name: `Version ${n}` });

test("restores an older version from History into the draft, then publishes it as usual", async ({ page, owner }) => {
  // Two publishes, two axe runs, a restore and a publish, each with the dashboard's reload.
  test.setTimeout(120_000);
  await twoVersions(page, owner);
  const history = page.getByRole("button", { name: "History" });
  await history.click();
  const dialog = page.getByRole("dialog", { name: "History" });
  await expect(dialog.getByRole("listitem")).toHaveCount(2);
  await expect(versionItem(page, 2)).toContainText("Live now");
  await expect(versionItem(page, 2)).toContainText("1 link added, 1 link removed, display name changed");
  await expect(versionItem(page, 1)).toContainText("First published version");
  await expectNoAxeViolations(page, "History");

  // Cancel first: nothing changes, and the focus is back on the button that asked.
  const restore = versionItem(page, 1).getByRole("button", { name: "Restore to draft: version 1" });
  await restore.click();
  const confirm = page.getByRole("alertdialog", { name: "Restore version 1 to your draft?" });
  await expect(confirm).toContainText("Your live page does not change until you publish.");
  await expectNoAxeViolations(page, "History: restore confirmation");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toHaveCount(0);
  await expect(restore).toBeFocused();

  const reloaded = page.waitForEvent("load");
  await restore.click();
  await confirm.getByRole("button", { name: "Yes, Restore to Draft" }).click();
  await expect(page.getByText("Version 1 is now your draft")).toBeVisible();
  await reloaded;
  await expect(page.getByTestId("link-row").filter({ hasText: "Old Link" })).toBeVisible();
  await expect(page.getByTestId("link-row").filter({ hasText: "New Link" })).toHaveCount(0);
  await expect(page.getByText("Draft Changes")).toBeVisible();
  // The live page is still version 2 until the owner publishes.
  const visitor = await page.context().newPage();
  await visitor.goto(`/${owner.username}`);
  await expect(visitor.getByRole("heading", { name: "Second Name" })).toBeVisible();

  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await page.getByRole("alertdialog", { name: "Publish Changes" }).getByRole("button", { name: "Yes, Publish Now" }).click();
  await expect(page.getByText("Your page has been published!")).toBeVisible();
  await visitor.reload();
  await expect(visitor.getByRole("heading", { name: "First Name" })).toBeVisible();
  await expect(visitor.getByRole("link", { name: "Old Link" })).toBeVisible();
});

test("puts an older version live at once from History", async ({ page, owner }) => {
  await twoVersions(page, owner);
  await page.getByRole("button", { name: "History" }).click();
  // The live version offers no "Put live"; the older one does.
  await expect(versionItem(page, 2).getByRole("button", { name: /^Put live/ })).toHaveCount(0);
  await versionItem(page, 1).getByRole("button", { name: "Put live: version 1" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Put version 1 live?" });
  await expect(confirm).toContainText("Visitors will see this version at once");
  await expectNoAxeViolations(page, "History: put live confirmation");
  const reloaded = page.waitForEvent("load");
  await confirm.getByRole("button", { name: "Yes, Put It Live" }).click();
  await expect(page.getByText("Your page has been published!")).toBeVisible();

  const visitor = await page.context().newPage();
  await visitor.goto(`/${owner.username}`);
  await expect(visitor.getByRole("heading", { name: "First Name" })).toBeVisible();
  await expect(visitor.getByRole("link", { name: "Old Link" })).toBeVisible();
  await reloaded;
  await expect(page.getByText("Draft Changes")).toHaveCount(0);
  await page.getByRole("button", { name: "History" }).click();
  await expect(versionItem(page, 3)).toContainText("Live now");
  await expect(versionItem(page, 3)).toContainText("1 link added, 1 link removed, display name changed");
});

test("History by keyboard at 320 px: opens, shows each version's time, previews, restores and puts live, and gives the focus back", async ({ page, owner, context }) => {
  // Two publishes, a restore and a put live, each with the dashboard's reload.
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 320, height: 640 });
  await twoVersions(page, owner);
  // Version 1 was published at a known instant: the list shows it in the browser's time zone, the
  // preview's banner (written by the server) in UTC.
  e2eDb()
    .update(pageVersions)
    .set({ publishedAt: new Date("2026-03-04T15:07:00Z") })
    .where(and(eq(pageVersions.userId, owner.userId), eq(pageVersions.version, 1)))
    .run();
  const history = page.getByRole("button", { name: "History" });
  await history.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "History" });
  await expect(versionItem(page, 1)).toBeVisible();
  await expect(versionItem(page, 1)).toContainText("Mar 4, 2026 at 10:07 AM");
  await expect(versionItem(page, 2)).toContainText(/[A-Z][a-z]{2} \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M/);
  const box = (await dialog.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(320);
  expect(await dialog.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await expectNoAxeViolations(page, "History at 320 px");

  const preview = versionItem(page, 1).getByRole("link", { name: "Preview: version 1 (opens in a new tab)" });
  const opened = context.waitForEvent("page");
  await preview.focus();
  await page.keyboard.press("Enter");
  const tab = await opened;
  await expect(tab.getByRole("status")).toContainText("Version 1, published 4 Mar 2026, 15:07 UTC");
  await expect(tab.getByRole("heading", { name: "First Name" })).toBeVisible();
  await expect(tab.getByRole("link", { name: "Old Link" })).toBeVisible();
  await tab.close();

  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(history).toBeFocused();

  // Restore: Tab from Preview reaches it, Enter asks, the question starts on Cancel, and Escape
  // hands the focus back; then Tab and Enter restore.
  await page.keyboard.press("Enter");
  await preview.focus();
  await page.keyboard.press("Tab");
  const restore = versionItem(page, 1).getByRole("button", { name: "Restore to draft: version 1" });
  await expect(restore).toBeFocused();
  await page.keyboard.press("Enter");
  const restoreConfirm = page.getByRole("alertdialog", { name: "Restore version 1 to your draft?" });
  await expect(restoreConfirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await dialogReady(restoreConfirm);
  await page.keyboard.press("Escape");
  await expect(restoreConfirm).toHaveCount(0);
  await expect(restore).toBeFocused();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  await expect(restoreConfirm.getByRole("button", { name: "Yes, Restore to Draft" })).toBeFocused();
  const restored = page.waitForEvent("load");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Version 1 is now your draft")).toBeVisible();
  await restored;
  await expect(page.getByTestId("link-row").filter({ hasText: "Old Link" })).toBeVisible();

  // Put live: the next stop after Restore, and its question confirmed by Tab and Enter.
  await history.focus();
  await page.keyboard.press("Enter");
  await versionItem(page, 1).getByRole("button", { name: "Restore to draft: version 1" }).focus();
  await page.keyboard.press("Tab");
  await expect(versionItem(page, 1).getByRole("button", { name: "Put live: version 1" })).toBeFocused();
  await page.keyboard.press("Enter");
  const liveConfirm = page.getByRole("alertdialog", { name: "Put version 1 live?" });
  await expect(liveConfirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(liveConfirm.getByRole("button", { name: "Yes, Put It Live" })).toBeFocused();
  const reloaded = page.waitForEvent("load");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Your page has been published!")).toBeVisible();
  const visitor = await context.newPage();
  await visitor.goto(`/${owner.username}`);
  await expect(visitor.getByRole("heading", { name: "First Name" })).toBeVisible();
  await reloaded;
});

test("History before anything is published says what it will hold", async ({ page, owner }) => {
  await page.goto("/dashboard/links");
  await expect(page.getByText(`@${owner.username}`)).toBeVisible();
  await page.getByRole("button", { name: "History" }).click();
  await expect(page.getByRole("dialog", { name: "History" })).toContainText("Nothing published yet.");
  await expectNoAxeViolations(page, "History, empty");
});

test("a Lite owner puts a version with Plus items live: the confirmation lists what visitors will not see", async ({ page, owner }) => {
  test.setTimeout(120_000);
  const db = e2eDb();
  await page.goto("/api/health");
  // Version 1, during the trial: a main button and long-form text; version 2: neither.
  const shop = newId();
  db.update(userProfiles).set({ displayName: "Plus Name", longFormText: "My long story, kept safe." }).where(eq(userProfiles.userId, owner.userId)).run();
  db.insert(links).values({ id: shop, userId: owner.userId, title: "Shop", url: "https://example.com/shop", orderIndex: 0, isMainButton: true }).run();
  await publishNow(page);
  db.delete(links).where(eq(links.id, shop)).run();
  db.update(userProfiles).set({ displayName: "Lite Name", longFormText: "" }).where(eq(userProfiles.userId, owner.userId)).run();
  await publishNow(page);
  // The trial ends.
  db.update(userProfiles).set({ trialEndsAt: new Date(Date.now() - 1000) }).where(eq(userProfiles.userId, owner.userId)).run();
  await page.goto("/dashboard/links");
  await expect(page.getByRole("heading", { name: "Page Layout" })).toBeVisible();

  await page.getByRole("button", { name: "History" }).click();
  await expect(versionItem(page, 1)).toContainText("Put live now, your plan hides 2 Plus items of this version");
  await versionItem(page, 1).getByRole("button", { name: "Put live: version 1" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Put version 1 live?" });
  await expect(confirm).toContainText("Your plan hides the Plus items below on your page; your draft keeps them");
  const hides = confirm.getByRole("list", { name: "What visitors will not see" }).getByRole("listitem");
  await expect(hides).toHaveText(["“Shop” will show as an ordinary link, not the main button", "Your long-form text will be hidden"]);
  await expectNoAxeViolations(page, "History: put live with Plus items hidden");
  const reloaded = page.waitForEvent("load");
  await confirm.getByRole("button", { name: "Hide Plus items and put live" }).click();
  await expect(page.getByText("Your page has been published!")).toBeVisible();

  // Visitors get version 1 as a Lite page: Shop as an ordinary link, no long-form text.
  const visitor = await page.context().newPage();
  await visitor.goto(`/${owner.username}`);
  await expect(visitor.getByRole("heading", { name: "Plus Name" })).toBeVisible();
  await expect(visitor.getByRole("link", { name: "Shop" })).toBeVisible();
  await expect(visitor.getByText("My long story, kept safe.")).toHaveCount(0);
  // The draft keeps everything.
  await reloaded;
  await expect(page.getByTestId("link-row").filter({ hasText: "Shop" })).toBeVisible();
  await page.getByRole("button", { name: "History" }).click();
  await expect(versionItem(page, 3)).toContainText("Live now");
  await expect(versionItem(page, 3)).toContainText("Published with Plus items hidden by your plan");
});
