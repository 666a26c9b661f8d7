/**
 * Plan limits where the owner works (issue 25, ADRs 112, 113 and 136): after the trial, Plus-only rows
 * and settings say so where they are edited; the Publish dialog lists what visitors would stop seeing
 * before anything is confirmed and offers Upgrade or Hide Plus items and publish, which hides them by
 * the plan and leaves the draft as it is; a refusal's toast offers Upgrade; the Page Layout header
 * counts only links shown now and reads the 5 limit beside the Lite rule.
 */
import type { BrowserContext, Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { newId } from "#db/ids.ts";
import { links, socialLinks, userProfiles } from "#db/schema.ts";
import { expectNoAxeViolations } from "./axe.ts";
import { createOwner, e2eDb, expect, signInAs, test, type TestOwner } from "./fixtures.ts";

const HOUR = 3_600_000;

function addLink(owner: TestOwner, title: string, orderIndex: number, extra: Partial<typeof links.$inferInsert> = {}): void {
  e2eDb()
    .insert(links)
    .values({ id: newId(), userId: owner.userId, title, url: `https://example.com/${title.toLowerCase()}`, orderIndex, ...extra })
    .run();
}

/** A page built during the trial with Plus items, its trial now over. */
async function liteOwnerWithPlusItems(): Promise<TestOwner> {
  const owner = await createOwner({ trial: false });
  addLink(owner, "Shop", 0, { isMainButton: true });
  addLink(owner, "Card", 1, { linkType: "vcf", url: "#", linkSpecificData: { name: "Ada Lovelace" } });
  addLink(owner, "Guide", 2, { linkType: "lead_magnet", url: "#", linkSpecificData: { description: "A free guide" } });
  addLink(owner, "Blog", 3);
  e2eDb()
    .update(userProfiles)
    .set({ longFormText: "About me", customFontPairingName: "elegant-serif", selectedThemeName: "neon-dark" })
    .where(eq(userProfiles.userId, owner.userId))
    .run();
  return owner;
}

const row = (page: Page, title: string) => page.getByTestId("link-row").filter({ hasText: title });

/** Signs `owner` in on Page Layout and presses Publish: the Publish dialog with its blockers. */
async function openPublishDialog(page: Page, context: BrowserContext, owner: TestOwner) {
  await signInAs(context, owner);
  await page.goto("/dashboard/links");
  await expect(page.getByTestId("link-row").first()).toBeVisible();
  const publish = page.getByRole("button", { name: "Publish", exact: true });
  await publish.click();
  return { publish, dialog: page.getByRole("dialog", { name: "Publish Changes" }) };
}

test("after the trial, Plus-only rows and settings carry the PLUS mark and 'not on your live page'", async ({ page, context }) => {
  const owner = await liteOwnerWithPlusItems();
  await signInAs(context, owner);
  await page.goto("/dashboard/links");
  await expect(page.getByRole("heading", { name: "Page Layout" })).toBeVisible();
  for (const title of ["Shop", "Card", "Guide"]) {
    await expect(row(page, title).getByText("not on your live page")).toBeVisible();
    await expect(row(page, title).getByRole("button", { name: /^PLUS/ })).toBeVisible();
  }
  await expect(row(page, "Blog")).toBeVisible();
  await expect(row(page, "Blog").getByText("not on your live page")).toHaveCount(0);

  await page.getByRole("link", { name: "Bio & SEO" }).first().click();
  await expect(page.getByRole("heading", { name: /Long-form text/ })).toContainText("not on your live page");

  await page.getByRole("link", { name: "Theme" }).first().click();
  await expect(page.getByRole("group", { name: /Font pairing/ })).toContainText("not on your live page");
  await expect(page.getByRole("group", { name: /Branding/ })).not.toContainText("not on your live page");
  // The saved Plus theme says it is not live (the page falls back to the default); other Plus themes only carry PLUS.
  await expect(page.getByTestId("theme-neon-dark")).toContainText("not on your live page");
  await expect(page.getByTestId("theme-ocean-blue").getByRole("button", { name: /^PLUS/ })).toBeVisible();
  await expect(page.getByTestId("theme-ocean-blue")).not.toContainText("not on your live page");
});

test("the same page during the trial carries no 'not on your live page' mark", async ({ page, context }) => {
  const owner = await liteOwnerWithPlusItems();
  e2eDb().update(userProfiles).set({ trialEndsAt: new Date(Date.now() + 86_400_000) }).where(eq(userProfiles.userId, owner.userId)).run();
  await signInAs(context, owner);
  await page.goto("/dashboard/links");
  await expect(row(page, "Card")).toBeVisible();
  await expect(page.getByText("not on your live page")).toHaveCount(0);
});

test("the Publish dialog lists the blockers first; Hide Plus items and publish hides exactly them on the page and leaves the draft as it is", async ({ page, context }) => {
  const owner = await liteOwnerWithPlusItems();
  const { publish, dialog } = await openPublishDialog(page, context, owner);
  await expect(dialog).toContainText("Publishing requires Plinth Plus subscription");
  const list = dialog.getByRole("list", { name: "Plus items in your draft" });
  await expect(list.getByRole("listitem")).toHaveText([
    "Contact cards (vCard): “Card” will be hidden (Contact Card links need Plus)",
    "Lead magnet links: “Guide” will be hidden (Lead Magnet links need Plus)",
    "Main call-to-action button: “Shop” will show as an ordinary link, not the main button",
    "Long-form text: Your long-form text will be hidden",
    "Premium themes: Your theme, Neon Dark, will show as Minimalist Light",
    "Custom fonts: Your font pairing will show as the theme's fonts",
  ]);
  await expect(dialog.getByRole("button", { name: "Upgrade" })).toBeVisible();
  await expectNoAxeViolations(page, "Publish dialog with blockers");

  // Cancel leaves everything as it was, focus back on Publish.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(publish).toBeFocused();

  await publish.click();
  // The dashboard reloads itself a moment after the toast; the draft is read again after that.
  const reloaded = page.waitForEvent("load");
  await dialog.getByRole("button", { name: "Hide Plus items and publish" }).click();
  await expect(page.getByText("Your page has been published!")).toBeVisible();

  const visitor = await context.newPage();
  await visitor.goto(`/${owner.username}`);
  await expect(visitor.getByRole("link", { name: "Shop" })).toBeVisible();
  await expect(visitor.getByRole("link", { name: "Blog" })).toBeVisible();
  await expect(visitor.locator(".btn.main")).toHaveCount(0);
  await expect(visitor.getByText("Card")).toHaveCount(0);
  await expect(visitor.getByText("Guide")).toHaveCount(0);
  await expect(visitor.getByText("About me")).toHaveCount(0);

  // The draft is as it was: every link still switched on, the main button still the main button,
  // each still marked as not on the live page (the plan hides it there).
  await reloaded;
  for (const title of ["Card", "Guide", "Blog", "Shop"]) await expect(row(page, title).getByRole("switch", { name: `Visible: ${title}` })).toBeChecked();
  await expect(row(page, "Shop").getByText("Main button")).toBeVisible();
  await expect(row(page, "Card").getByText("not on your live page")).toBeVisible();
  await expect(page.getByText("Draft Changes")).toHaveCount(0);
});

test("Upgrade in the Publish dialog goes to checkout", async ({ page, context }) => {
  const { dialog } = await openPublishDialog(page, context, await liteOwnerWithPlusItems());
  await dialog.getByRole("button", { name: "Upgrade" }).click();
  await expect(page).toHaveURL(/\/billing\/checkout\?session=/);
});

test("a refusal's toast offers Upgrade when the trial ended after the dialog opened", async ({ page, context }) => {
  const owner = await createOwner();
  addLink(owner, "Card", 0, { linkType: "vcf", url: "#", linkSpecificData: { name: "Ada Lovelace" } });
  await signInAs(context, owner);
  await page.goto("/dashboard/links");
  await expect(row(page, "Card")).toBeVisible();
  // Opening the dialog re-reads the publish state; the trial must end only after that answer.
  const stateRead = page.waitForResponse((r) => r.url().endsWith("/api/publish/state"));
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await stateRead;
  const confirm = page.getByRole("alertdialog", { name: "Publish Changes" });
  await expect(confirm).toBeVisible();
  // The trial ends while the owner reads the dialog: the server refuses on confirm.
  e2eDb().update(userProfiles).set({ trialEndsAt: new Date() }).where(eq(userProfiles.userId, owner.userId)).run();
  await confirm.getByRole("button", { name: "Yes, Publish Now" }).click();
  const toast = page.getByRole("listitem").filter({ hasText: "Publishing requires Plinth Plus subscription" });
  await expect(toast).toContainText("Contact cards (vCard)");
  await toast.getByRole("button", { name: "Upgrade" }).click();
  await expect(page).toHaveURL(/\/billing\/checkout\?session=/);
});

test("Page Layout counts only links shown now and states the one link limit that applies to this owner now (ADR 143)", async ({ page, context }) => {
  const owner = await createOwner({ trial: false });
  const now = Date.now();
  addLink(owner, "Live", 0);
  addLink(owner, "Later", 1, { scheduleStartTime: new Date(now + 24 * HOUR) });
  addLink(owner, "Over", 2, { scheduleEndTime: new Date(now - HOUR) });
  addLink(owner, "Off", 3, { isActive: false });
  await signInAs(context, owner);
  await page.goto("/dashboard/links");
  const summary = page.getByTestId("layout-summary");
  // Lite: Lite's 7, and no other number.
  await expect(summary).toHaveText(/^Manage your page components\. 1 of 4 components visible \(7 limit\)\.\s*PLUS/);
  await expect(summary).not.toContainText("5");
  await expect(summary.getByRole("button", { name: /^PLUS/ })).toBeVisible();

  // On the trial: no limit, and no Lite number beside it.
  e2eDb().update(userProfiles).set({ trialEndsAt: new Date(now + 86_400_000) }).where(eq(userProfiles.userId, owner.userId)).run();
  await page.reload();
  await expect(summary).toHaveText("Manage your page components. 1 of 4 components visible (no limit during your trial).");

  // On paid Plus: no limit.
  e2eDb()
    .update(userProfiles)
    .set({ trialEndsAt: new Date(now), planType: "plus", subscriptionStatus: "active_plus", currentPeriodEndDate: new Date(now + 30 * 86_400_000) })
    .where(eq(userProfiles.userId, owner.userId))
    .run();
  await page.reload();
  await expect(summary).toHaveText("Manage your page components. 1 of 4 components visible (no limit).");
});

test("on a 320 px phone the Publish dialog with blockers fits the screen and passes axe", async ({ page, context }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  const { publish, dialog } = await openPublishDialog(page, context, await liteOwnerWithPlusItems());
  const hide = dialog.getByRole("button", { name: "Hide Plus items and publish" });
  await expect(hide).toBeVisible();
  const box = (await hide.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(320);
  await expectNoAxeViolations(page, "Publish dialog with blockers at 320 px");
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(publish).toBeFocused();
});

test("links and social icons over the Lite limits are marked where they are counted, and hiding leaves them on in the draft", async ({ page, context }) => {
  const owner = await createOwner({ trial: false });
  for (let i = 0; i < 8; i++) addLink(owner, `Link ${i + 1}`, i, { url: `https://example.com/${i + 1}` });
  const icons = [
    ["github", "https://github.com/ada"],
    ["x", "https://x.com/ada"],
    ["youtube", "https://www.youtube.com/@ada"],
    ["twitch", "https://www.twitch.tv/ada"],
    ["vimeo", "https://vimeo.com/ada"],
  ] as const;
  icons.forEach(([platform, url], i) => e2eDb().insert(socialLinks).values({ id: newId(), userId: owner.userId, platform, url, displayOrder: i }).run());
  const { dialog } = await openPublishDialog(page, context, owner);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("layout-summary")).toContainText("not on your live page");
  await page.getByRole("link", { name: "Social Links" }).first().click();
  await expect(page.getByRole("heading", { name: "Social Links", exact: true })).toBeVisible();
  await expect(page.getByText("not on your live page")).toBeVisible();

  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(dialog.getByRole("listitem")).toHaveText([
    "Unlimited links: “Link 8” will be hidden (over the 7-link limit)",
    "Unlimited social links: The Vimeo icon will be hidden (over the 4-icon limit)",
  ]);
  const reloaded = page.waitForEvent("load");
  await dialog.getByRole("button", { name: "Hide Plus items and publish" }).click();
  // The dashboard reloads a second after a publish has gone through; its toast may be gone by then.
  await reloaded;
  const visitor = await context.newPage();
  await visitor.goto(`/${owner.username}`);
  await expect(visitor.getByRole("link", { name: /^Link \d$/ })).toHaveCount(7);
  await expect(visitor.getByRole("link", { name: "Link 8" })).toHaveCount(0);
  await expect(visitor.getByRole("list", { name: "Social links" }).getByRole("link")).toHaveCount(4);
  await expect(page.getByRole("switch", { name: /Vimeo/ })).toBeChecked();
  await expect(page.getByText("not on your live page")).toBeVisible();
});
