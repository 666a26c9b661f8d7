/**
 * Hiding is not deleting (issue 33, ADR 136): a Lite owner whose draft holds long text, a scheduled
 * link with a thumbnail, a Plus theme and SEO fields presses "Hide Plus items and publish"; the public
 * page is a Lite page and the draft still holds everything, in the dashboard and through the API;
 * after an upgrade through test-mode billing the page shows everything again, the dashboard says so
 * once, and the next publish keeps it all.
 */
import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { newId } from "#db/ids.ts";
import { links, userProfiles } from "#db/schema.ts";
import { expectNoAxeViolations } from "./axe.ts";
import { subscribeInBrowser } from "./billing-helpers.ts";
import { createOwner, e2eDb, expect, signInAs, test, type TestOwner } from "./fixtures.ts";

const HOUR = 3_600_000;
const LONG_TEXT = `## About me\n\n${"I make things with wood and write about it. ".repeat(17).trim()}`;

function liteOwnerWithPlusItems(owner: TestOwner) {
  const now = Date.now();
  const insert = (values: Partial<typeof links.$inferInsert> & { title: string; orderIndex: number }) =>
    e2eDb()
      .insert(links)
      .values({ id: newId(), userId: owner.userId, url: `https://example.com/${values.title.toLowerCase().replace(/\s/g, "-")}`, ...values })
      .run();
  insert({ title: "Blog", orderIndex: 0 });
  insert({ title: "Winter Sale", orderIndex: 1, scheduleStartTime: new Date(now - HOUR), scheduleEndTime: new Date(now + 48 * HOUR), thumbnailUrl: "/media/ab/winter-sale.webp" });
  e2eDb()
    .update(userProfiles)
    .set({ displayName: "Ada Wood", longFormText: LONG_TEXT, selectedThemeName: "ocean-blue", seoTitle: "Ada's Woodshop", seoDescription: "Handmade tables and chairs" })
    .where(eq(userProfiles.userId, owner.userId))
    .run();
}

/** The public page as a visitor gets it now. */
async function publicPage(page: Page, owner: TestOwner): Promise<string> {
  return page.evaluate(async (u) => (await fetch(`/${u}`, { cache: "no-store", credentials: "omit" })).text(), owner.username);
}

test("a Lite owner hides Plus items and publishes: a Lite page, the draft keeps everything, and an upgrade brings it all back", async ({ page, context }) => {
  // The whole walk: two publishes, four screens, a checkout and the re-render it queues.
  test.setTimeout(120_000);
  const owner = await createOwner({ trial: false });
  liteOwnerWithPlusItems(owner);
  await signInAs(context, owner);
  await page.goto("/dashboard/links");
  await expect(page.getByTestId("link-row").filter({ hasText: "Winter Sale" })).toBeVisible();

  // The dialog lists what visitors will stop seeing, item by item.
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Publish Changes" });
  await expect(dialog.getByRole("list", { name: "Plus items in your draft" }).getByRole("listitem")).toHaveText([
    "Link scheduling: “Winter Sale” will be hidden (scheduled links need Plus)",
    "Long-form text: Your long-form text will be hidden",
    "Premium themes: Your theme, Ocean Blue, will show as Minimalist Light",
    "SEO settings: Your SEO title will not be used (search results show your name); Your meta description will not be used (search results show your bio)",
  ]);
  await expect(dialog).toContainText("Your draft keeps every item");
  const reloaded = page.waitForEvent("load");
  await dialog.getByRole("button", { name: "Hide Plus items and publish" }).click();
  await expect(page.getByText("Your page has been published!")).toBeVisible();

  // The public page is a Lite page.
  const visitor = await context.newPage();
  await visitor.goto(`/${owner.username}`);
  await expect(visitor.getByRole("link", { name: "Blog" })).toBeVisible();
  await expect(visitor.getByText("Winter Sale")).toHaveCount(0);
  await expect(visitor.getByText("I make things with wood")).toHaveCount(0);
  await expect(visitor).toHaveTitle("Ada Wood");
  await expect(visitor.getByRole("link", { name: "Powered by Plinth" })).toBeVisible();
  await expect(visitor.locator('meta[name="theme-color"]')).toHaveAttribute("content", "#ffffff");

  // The draft still holds everything: in the dashboard...
  await reloaded;
  const sale = page.getByTestId("link-row").filter({ hasText: "Winter Sale" });
  await expect(sale.getByText(/^Ends /)).toBeVisible();
  await expect(sale.locator("img")).toHaveAttribute("src", "/media/ab/winter-sale.webp");
  await expect(sale.getByRole("switch", { name: "Visible: Winter Sale" })).toBeChecked();
  // Nothing was edited, so there is nothing to discard: the draft is what was published.
  await expect(page.getByText("Draft Changes")).toHaveCount(0);
  await page.getByRole("link", { name: "Bio & SEO" }).first().click();
  await expect(page.getByLabel("About section")).toHaveValue(LONG_TEXT);
  await expect(page.getByLabel("SEO title")).toHaveValue("Ada's Woodshop");
  await expect(page.getByLabel("Meta description")).toHaveValue("Handmade tables and chairs");
  await page.getByRole("link", { name: "Theme" }).first().click();
  await expect(page.getByRole("radio", { name: /Ocean Blue/ })).toBeChecked();
  // ...and through the API.
  const draft = await page.evaluate(async () => (await (await fetch("/api/profile")).json()).snapshot);
  expect(draft.profile).toMatchObject({ longFormText: LONG_TEXT, longFormTextVisible: true, selectedThemeName: "ocean-blue", seoTitle: "Ada's Woodshop", seoDescription: "Handmade tables and chairs" });
  expect(draft.links.find((l: { title: string }) => l.title === "Winter Sale")).toMatchObject({ isActive: true, thumbnailUrl: "/media/ab/winter-sale.webp", scheduleStartTime: expect.any(String), scheduleEndTime: expect.any(String) });

  // The owner upgrades through test-mode billing: the live page shows everything again by itself.
  await subscribeInBrowser(page);
  await expect.poll(() => publicPage(page, owner)).toContain("I make things with wood");
  const plusPage = await publicPage(page, owner);
  for (const shown of ["Winter Sale", 'src="/media/ab/winter-sale.webp"', "<title>Ada's Woodshop</title>", "Handmade tables and chairs"]) expect(plusPage).toContain(shown);
  expect(plusPage).not.toContain('<meta name="theme-color" content="#ffffff">');

  // The dashboard says so, once.
  await page.goto("/dashboard/links");
  await expect(page.getByText("Your Plus items are back on your page")).toBeVisible();
  await expectNoAxeViolations(page, "the notice that the Plus items are back");
  await page.reload();
  await expect(page.getByRole("heading", { name: "Page Layout" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Publish", exact: true })).toBeDisabled();
  await expect(page.getByText("Your Plus items are back on your page")).toHaveCount(0);

  // The next publish keeps everything.
  await page.getByRole("switch", { name: "Visible: Blog" }).click();
  await expect(page.getByText("Draft Changes")).toBeVisible();
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await page.getByRole("alertdialog", { name: "Publish Changes" }).getByRole("button", { name: "Yes, Publish Now" }).click();
  await expect(page.getByText("Your page has been published!")).toBeVisible();
  await visitor.reload();
  await expect(visitor.getByRole("link", { name: /Winter Sale/ })).toBeVisible();
  await expect(visitor.getByText("I make things with wood")).toBeVisible();
  await expect(visitor).toHaveTitle("Ada's Woodshop");
  await expect(visitor.getByText("Blog")).toHaveCount(0);
});

test("the long-form text's own switch takes it off the page and keeps it", async ({ page, owner }) => {
  e2eDb().update(userProfiles).set({ longFormText: "A text worth keeping" }).where(eq(userProfiles.userId, owner.userId)).run();
  await page.goto("/dashboard/bio");
  const toggle = page.getByRole("switch", { name: "Show long-form text on my page" });
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(page.getByText("Long-form text hidden: your text is kept")).toBeVisible();
  await expect(toggle).not.toBeChecked();
  await expect(page.getByLabel("About section")).toHaveValue("A text worth keeping");
  await expect(page.getByTestId("live-preview").contentFrame().getByText("A text worth keeping")).toHaveCount(0);

  await page.getByRole("button", { name: "Publish", exact: true }).click();
  // The dashboard reloads itself a moment after the toast.
  const reloaded = page.waitForEvent("load");
  await page.getByRole("alertdialog", { name: "Publish Changes" }).getByRole("button", { name: "Yes, Publish Now" }).click();
  await expect(page.getByText("Your page has been published!")).toBeVisible();
  await reloaded;
  expect(await page.evaluate(async (u) => (await fetch(`/${u}`)).text(), owner.username)).not.toContain("A text worth keeping");

  await page.getByRole("switch", { name: "Show long-form text on my page" }).click();
  await expect(page.getByText("Long-form text shown on your page")).toBeVisible();
  await expect(page.getByTestId("live-preview").contentFrame().getByText("A text worth keeping")).toBeVisible();
});
