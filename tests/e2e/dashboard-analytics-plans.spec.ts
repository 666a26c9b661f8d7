/**
 * Which analytics are Lite and which Plus (ADR 074), as /pricing sells them, as the dashboard shows
 * them and as the API answers: a Lite owner after the trial and a paying Plus owner.
 */
import { newId } from "#db/ids.ts";
import { links } from "#db/schema.ts";
import { recordEvents } from "#api/services/analytics-store.ts";
import { SITE_FEATURES } from "#core/features.ts";
import { createOwner, e2eDb, expect, signInAs, test, type TestOwner } from "./fixtures.ts";

function seed(owner: TestOwner) {
  const db = e2eDb();
  const linkId = newId();
  db.insert(links).values({ id: linkId, userId: owner.userId, title: "My Shop", url: "https://shop.example/", orderIndex: 0 }).run();
  recordEvents(db, [
    { userId: owner.userId, kind: "page_view", device: "desktop", referrerDomain: "t.co", country: "DE", occurredAt: new Date() },
    { userId: owner.userId, kind: "link_click", linkId, occurredAt: new Date() },
  ]);
}
const exportUrl = () => {
  const to = new Date(Date.now() + 86_400_000).toISOString();
  return `/api/analytics/export?format=csv&from=${encodeURIComponent(new Date(Date.now() - 86_400_000).toISOString())}&to=${encodeURIComponent(to)}`;
};

test("/pricing sells the analytics overview to Lite and detailed analytics to Plus, and says what each holds", async ({ page }) => {
  await page.goto("/pricing");
  const lite = page.locator("[data-plan=lite]");
  const plus = page.locator("[data-plan=plus]");
  const overview = SITE_FEATURES.find((f) => f.id === "analytics")!;
  const detailed = SITE_FEATURES.find((f) => f.id === "detailed-analytics")!;
  await expect(lite.getByText(overview.label, { exact: true })).toBeVisible();
  await expect(lite.getByText(overview.note)).toBeVisible();
  await expect(lite.getByText(detailed.label, { exact: true })).toHaveCount(0);
  await expect(plus.getByText(detailed.label, { exact: true })).toBeVisible();
  await expect(plus.getByText(detailed.note)).toBeVisible();
  const row = page.getByRole("row", { name: /Detailed analytics/ });
  await expect(row.getByRole("cell").nth(0)).toHaveText("–Not included");
  await expect(row.getByRole("cell").nth(1)).toHaveText("✓Included");
});

test("a Lite owner after the trial sees the overview, and the Plus Feature prompt for the detailed parts and exports", async ({ page, context }) => {
  const lite = await createOwner({ trial: false });
  await context.clearCookies();
  await signInAs(context, lite);
  seed(lite);
  await page.goto("/dashboard/analytics");
  const card = (name: string) => page.getByRole("tabpanel", { name: "Overview" }).getByText(name, { exact: true }).locator("..");
  await expect(card("Page Views")).toContainText("1");
  await expect(card("Link Clicks")).toContainText("1");
  await expect(card("Email Leads")).toContainText("—");
  await expect(page.getByRole("group", { name: "Page views per day" })).toBeVisible();

  await page.getByRole("tab", { name: "Link Performance" }).click();
  const panel = page.getByRole("tabpanel", { name: "Link Performance" });
  await expect(panel).toContainText("This feature requires Plinth Plus. Click to upgrade!");
  await expect(panel.getByRole("table")).toHaveCount(0);
  await expect(page.getByText("My Shop")).toHaveCount(0);
  await panel.getByRole("button", { name: "Plus Feature" }).click();
  await expect(page.getByRole("dialog", { name: "Upgrade to Plinth Plus" })).toContainText("Detailed analytics is a Plinth Plus feature");
  await page.getByRole("button", { name: "Not Now" }).click();
  await expect(panel.getByRole("button", { name: "Plus Feature" })).toBeFocused();

  await page.getByRole("tab", { name: "Traffic Sources" }).click();
  const sources = page.getByRole("tabpanel", { name: "Traffic Sources" });
  await expect(sources).toContainText("This feature requires Plinth Plus. Click to upgrade!");
  await expect(page.getByText("X", { exact: true })).toHaveCount(0);
  await expect(page.getByText("Germany (DE)")).toHaveCount(0);

  await page.getByRole("button", { name: /^Export/ }).click();
  await expect(page.getByRole("dialog", { name: "Upgrade to Plinth Plus" })).toContainText("Detailed analytics is a Plinth Plus feature");
  await expect(page.getByRole("menuitem", { name: "Export to CSV" })).toHaveCount(0);
  await page.getByRole("button", { name: "Not Now" }).click();

  // The API agrees: no detailed parts, and the export is refused with the same Plus message.
  const res = await page.request.get(exportUrl());
  expect(res.status()).toBe(402);
  expect((await res.json()).error).toMatchObject({ message: "This feature requires Plinth Plus. Click to upgrade!", details: { feature: "detailed_analytics" } });
});

test("a Plus owner sees Link Performance, Traffic Sources and the exports", async ({ page, context }) => {
  const plus = await createOwner({ trial: false, plan: "plus" });
  await context.clearCookies();
  await signInAs(context, plus);
  seed(plus);
  await page.goto("/dashboard/analytics");
  await page.getByRole("tab", { name: "Link Performance" }).click();
  await expect(page.getByRole("row", { name: /My Shop/ })).toContainText("100.0%");
  await page.getByRole("tab", { name: "Traffic Sources" }).click();
  await expect(page.getByRole("rowheader", { name: "X" })).toBeVisible();
  await expect(page.getByRole("rowheader", { name: "Germany (DE)" })).toBeVisible();
  await expect(page.getByText("This feature requires Plinth Plus. Click to upgrade!")).toHaveCount(0);
  await page.getByRole("button", { name: "Export" }).click();
  await expect(page.getByRole("menuitem", { name: "Export to CSV" })).toBeVisible();
  await page.keyboard.press("Escape");
  expect((await page.request.get(exportUrl())).status()).toBe(200);
});
