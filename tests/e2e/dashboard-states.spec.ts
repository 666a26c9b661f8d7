/**
 * The dashboard's loading, empty and limit states from docs/product.md section 2, met as an owner meets them.
 * Loading texts are held on screen by holding the API's answer until they were seen, so no test
 * depends on how fast this machine is.
 */
import type { Page } from "@playwright/test";
import { ANALYTICS_TEXTS } from "#core/schemas/analytics.ts";
import { DASH } from "#core/dashboard-texts.ts";
import { SOCIAL_PLATFORMS } from "#core/platforms.ts";
import { expect, test } from "./fixtures.ts";

/** Holds GET `path` at the browser until `release()`; then it goes on to the server. */
async function holdGet(page: Page, path: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  await page.route(
    (url) => url.pathname === path,
    async (route) => {
      if (route.request().method() !== "GET") return route.fallback();
      held++;
      await released;
      await route.fallback();
    },
  );
  return { release, held: () => held };
}

async function post(page: Page, path: string, body: unknown): Promise<{ status: number; json: any }> {
  return page.evaluate(
    async ([p, b]) => {
      const res = await fetch(p as string, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(b) });
      return { status: res.status, json: await res.json() };
    },
    [path, body] as const,
  );
}

test("Page Layout shows its heading at once, and 'Loading components...' under it until the links arrive", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  const hold = await holdGet(page, "/api/links");
  await page.goto("/dashboard/links");
  await expect(page.getByRole("status").filter({ hasText: "Loading components..." })).toBeVisible();
  await expect.poll(() => hold.held()).toBeGreaterThan(0);
  await expect(page.getByRole("heading", { level: 1, name: "Page Layout" })).toBeVisible();
  await expect(page.getByTestId("layout-summary")).toHaveCount(0);
  hold.release();
  await expect(page.getByTestId("layout-summary")).toBeVisible();
  await expect(page.getByText("Loading components...")).toHaveCount(0);
});

test("while the session loads, the dashboard already shows the opening screen's heading and summary", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  const hold = await holdGet(page, "/api/me");
  await page.goto("/dashboard/bio");
  await expect(page.getByRole("heading", { level: 1, name: "Bio & SEO" })).toBeVisible();
  await expect(page.getByText("Tell visitors who you are, and choose how your page appears in search results.")).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Loading..." })).toBeVisible();
  await expect.poll(() => hold.held()).toBeGreaterThan(0);
  await expect(page.getByRole("navigation", { name: "Dashboard" })).toHaveCount(0);
  hold.release();
  await expect(page.getByRole("navigation", { name: "Dashboard" }).first()).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Bio & SEO" })).toHaveCount(1);
  await expect(page.getByLabel("Display name")).toBeVisible();
});

test("Analytics says 'Loading analytics...' until the report arrives", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  const hold = await holdGet(page, "/api/analytics");
  await page.goto("/dashboard/analytics");
  await expect(page.getByRole("heading", { name: ANALYTICS_TEXTS.title, exact: true })).toBeVisible();
  await expect(page.getByText(ANALYTICS_TEXTS.loading, { exact: true })).toBeVisible();
  // The loading line shows while the session loads too (ADR 248), before the report is asked for.
  await expect.poll(() => hold.held()).toBeGreaterThan(0);
  await expect(page.getByText(ANALYTICS_TEXTS.loading, { exact: true })).toBeVisible();
  await expect(page.getByText(ANALYTICS_TEXTS.emptyTitle)).toHaveCount(0);
  hold.release();
  await expect(page.getByRole("heading", { name: ANALYTICS_TEXTS.emptyTitle })).toBeVisible();
  await expect(page.getByText(ANALYTICS_TEXTS.loading)).toHaveCount(0);
});

test("a new owner's Page Layout: the empty state, its button, and the empty Scheduled tab", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.goto("/dashboard/links");
  await expect(page.getByRole("heading", { name: "No links yet" })).toBeVisible();
  await expect(page.getByText("Start by adding your first link to share with your audience", { exact: true })).toBeVisible();
  await expect(page.getByText("Manage your page components. 0 of 0 components visible (no limit during your trial).", { exact: true })).toBeVisible();

  await page.getByRole("tab", { name: "Scheduled" }).click();
  const noScheduled = page.getByText("No scheduled components found. Add scheduling to your components to see them here.", { exact: true });
  await expect(noScheduled).toBeVisible();
  await page.getByRole("tab", { name: "All Components" }).click();

  // The empty state's own button adds the first link; the empty state goes.
  await page.getByRole("button", { name: "Add Your First Link" }).click();
  const dialog = page.getByRole("dialog", { name: "Add New Link" });
  await dialog.getByLabel("Title").fill("First link");
  await dialog.getByRole("textbox", { name: "URL", exact: true }).fill("https://example.com/first");
  await dialog.getByRole("button", { name: "Add Link" }).click();
  await expect(page.getByText(DASH.linkAdded)).toBeVisible();
  await expect(page.getByTestId("link-row").filter({ hasText: "First link" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "No links yet" })).toHaveCount(0);
  await expect(page.getByText("Start by adding your first link to share with your audience")).toHaveCount(0);

  // A link with a schedule fills the Scheduled tab.
  const start = new Date(Date.now() + 7 * 86_400_000).toISOString();
  const added = await post(page, "/api/links", { linkType: "standard_url", title: "Launch day", url: "https://example.com/launch", scheduleStartTime: start });
  expect(added.status).toBe(201);
  await page.reload();
  await page.getByRole("tab", { name: "Scheduled" }).click();
  const scheduledPanel = page.getByRole("tabpanel", { name: "Scheduled" });
  await expect(scheduledPanel.getByTestId("link-row").filter({ hasText: "Launch day" })).toContainText("Starts ");
  await expect(scheduledPanel.getByTestId("link-row")).toHaveCount(1);
  await expect(noScheduled).toHaveCount(0);
});

test("the header counts visible components out of all of them", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.goto("/dashboard/links");
  await expect(page.getByRole("heading", { name: "Page Layout" })).toBeVisible();
  const added: { id: string; revision: number }[] = [];
  for (const title of ["One", "Two", "Three"]) {
    const r = await post(page, "/api/links", { linkType: "standard_url", title, url: `https://example.com/${title}` });
    expect(r.status).toBe(201);
    added.push(r.json.link);
  }
  const hidden = await page.evaluate(
    async ({ id, revision }) =>
      (await fetch(`/api/links/${id}/visibility`, { method: "PATCH", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ isActive: false, revision }) })).status,
    added[2]!,
  );
  expect(hidden).toBe(200);
  await page.reload();
  await expect(page.getByText("Manage your page components. 2 of 3 components visible (no limit during your trial).", { exact: true })).toBeVisible();

  await page.getByRole("switch", { name: "Visible: One" }).click();
  await expect(page.getByText(DASH.linkHidden)).toBeVisible();
  await expect(page.getByText("Manage your page components. 1 of 3 components visible (no limit during your trial).", { exact: true })).toBeVisible();
  await page.getByRole("switch", { name: "Visible: Three" }).click();
  await expect(page.getByText(DASH.linkActivated)).toBeVisible();
  await expect(page.getByText("Manage your page components. 2 of 3 components visible (no limit during your trial).", { exact: true })).toBeVisible();
});

test("Social Links: the platform grid and the list, and the message once every platform is added", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.goto("/dashboard/social-links");
  await expect(page.getByRole("heading", { name: "Add Social Platform", level: 2 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Your Social Links", level: 2 })).toBeVisible();
  for (const p of SOCIAL_PLATFORMS) await expect(page.getByRole("button", { name: p.name, exact: true })).toBeVisible();
  const allAdded = page.getByText("You've added all available social platforms!", { exact: true });
  await expect(allAdded).toHaveCount(0);

  const statuses: number[] = [];
  for (const p of SOCIAL_PLATFORMS) statuses.push((await post(page, "/api/social-links", { platform: p.id, handle: p.id === "whatsapp" ? "442079460000" : "ada_l" })).status);
  expect(statuses).toEqual(SOCIAL_PLATFORMS.map(() => 201));
  await page.reload();
  await expect(page.getByTestId("social-row")).toHaveCount(SOCIAL_PLATFORMS.length);
  await expect(allAdded).toBeVisible();
  for (const p of SOCIAL_PLATFORMS) await expect(page.getByRole("button", { name: p.name, exact: true })).toHaveCount(0);

  // Removing one brings its button back and the message goes.
  await page.getByRole("button", { name: "Actions for GitHub" }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await page.getByRole("alertdialog", { name: "Delete Social Link" }).getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText(DASH.socialRemoved)).toBeVisible();
  await expect(page.getByRole("button", { name: "GitHub", exact: true })).toBeVisible();
  await expect(allAdded).toHaveCount(0);
});

test("Keep Changes closes the discard dialog and leaves the draft as it was", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.goto("/dashboard/links");
  expect((await post(page, "/api/links", { linkType: "standard_url", title: "Unpublished link", url: "https://example.com/u" })).status).toBe(201);
  await page.reload();
  await expect(page.getByText("Draft Changes")).toBeVisible();

  const discards: string[] = [];
  await page.route(
    (url) => url.pathname === "/api/publish/discard",
    (route) => {
      discards.push(route.request().method());
      return route.fallback();
    },
  );
  await page.getByRole("button", { name: "Discard Changes" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Cancel Draft Changes" });
  await expect(dialog).toContainText("This cannot be undone.");
  await dialog.getByRole("button", { name: "Keep Changes" }).click();
  await expect(dialog).toBeHidden();
  // Keyboard users land back where they were, not at the top of the page.
  await expect(page.getByRole("button", { name: "Discard Changes" })).toBeFocused();
  await expect(page.getByText("Draft Changes")).toBeVisible();
  await expect(page.getByText(DASH.discarded)).toHaveCount(0);

  await page.reload();
  await expect(page.getByTestId("link-row").filter({ hasText: "Unpublished link" })).toBeVisible();
  await expect(page.getByText("Draft Changes")).toBeVisible();
  expect(discards).toEqual([]);
});

test("a dialog closed with Escape gives focus back to the button that opened it", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.goto("/dashboard/links");
  const add = page.getByRole("button", { name: "Add Component" });
  await add.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  // Focus moved into the dialog (the page behind it is hidden from assistive technology meanwhile).
  await expect(dialog.locator(":focus")).toHaveCount(1);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(add).toBeFocused();
});
