/**
 * The analytics charts and detailed parts as a trial owner meets them: every day of a chosen range
 * drawn (zeros included) with its values on hover, on keyboard focus and as a table; each link's
 * clicks over time; where a link without an address leads; sources by site, countries by name and
 * campaigns. Events are stored with explicit dates in 2025, read in UTC.
 */
import { newId } from "#db/ids.ts";
import { links } from "#db/schema.ts";
import { recordEvents, type AnalyticsEventInput } from "#api/services/analytics-store.ts";
import { e2eDb, expect, test, type TestOwner } from "./fixtures.ts";

test.use({ timezoneId: "UTC" });

const at = (day: number, hour = 12) => new Date(Date.UTC(2025, 2, day, hour));
function seed(owner: TestOwner) {
  const db = e2eDb();
  const shop = newId();
  const card = newId();
  db.insert(links).values({ id: shop, userId: owner.userId, title: "My Shop", url: "https://shop.example/", orderIndex: 0 }).run();
  db.insert(links).values({ id: card, userId: owner.userId, title: "My Card", url: "#", linkType: "vcf", orderIndex: 1 }).run();
  const view = (day: number, e: Partial<AnalyticsEventInput> = {}): AnalyticsEventInput => ({ userId: owner.userId, kind: "page_view", device: "mobile", occurredAt: at(day), ...e });
  recordEvents(db, [
    view(2, { referrerDomain: "l.instagram.com", country: "DE" }),
    view(2, { referrerDomain: "www.instagram.com", country: "DE", utmSource: "newsletter", utmMedium: "email", utmCampaign: "spring" }),
    view(2, { referrerDomain: "t.co", country: "FR" }),
    view(5),
    { userId: owner.userId, kind: "link_click", linkId: card, occurredAt: at(3) },
    { userId: owner.userId, kind: "link_click", linkId: card, occurredAt: at(3, 18) },
    { userId: owner.userId, kind: "link_click", linkId: shop, occurredAt: at(6) },
  ]);
}

async function chooseMarch(page: import("@playwright/test").Page) {
  await page.goto("/dashboard/analytics");
  await page.getByRole("button", { name: /Date range/ }).click();
  await page.getByLabel("From").fill("2025-03-01");
  await page.getByLabel("To").fill("2025-03-07");
  await page.getByRole("button", { name: "Apply" }).click();
  const range = page.getByRole("button", { name: /Date range/ });
  await expect(range).toHaveText("Mar 01, 2025 - Mar 07, 2025");
  // Apply hands the focus back to the range button.
  await expect(range).toBeFocused();
}

test("page views per day: every day drawn, read by hover, by keyboard and as a table", async ({ page, owner }) => {
  seed(owner);
  await chooseMarch(page);
  await expect(page.getByText("Page Views", { exact: true }).locator("..")).toContainText("4");

  const chart = page.getByRole("group", { name: "Page views per day" });
  const readout = chart.getByRole("status");
  // Keyboard: Tab reaches the chart, which starts on the last day; arrows, Home and End move.
  await page.getByRole("button", { name: "Show as table" }).first().focus();
  await page.keyboard.press("Tab");
  await expect(chart).toBeFocused();
  await expect(readout).toHaveText("Mar 07, 2025: 0 page views");
  await page.keyboard.press("Home");
  await expect(readout).toHaveText("Mar 01, 2025: 0 page views");
  await page.keyboard.press("ArrowRight");
  await expect(readout).toHaveText("Mar 02, 2025: 3 page views");
  await page.keyboard.press("End");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await expect(readout).toHaveText("Mar 05, 2025: 1 page views");
  await chart.blur();

  // Hover: the day under the pointer (seven days spread over the plot).
  const box = (await chart.locator("svg").boundingBox())!;
  const plot = box.width - 44 - 16;
  await page.mouse.move(box.x + 44 + plot / 6, box.y + box.height / 2);
  await expect(readout).toHaveText("Mar 02, 2025: 3 page views");
  await page.mouse.move(box.x + 44 + (plot * 4) / 6, box.y + box.height / 2);
  await expect(readout).toHaveText("Mar 05, 2025: 1 page views");

  // The text alternative: a row for every day, zeros included.
  await page.getByRole("button", { name: "Show as table" }).first().click();
  const table = page.getByRole("table", { name: "Page views per day" });
  await expect(table.getByRole("columnheader")).toHaveText(["Date", "Page views"]);
  await expect(table.getByRole("row")).toHaveCount(8);
  await expect(table.getByRole("row", { name: "Mar 02, 2025" })).toContainText("3");
  await expect(table.getByRole("row", { name: "Mar 03, 2025" })).toContainText("0");
  await expect(page.getByRole("button", { name: "Hide table" })).toHaveAttribute("aria-expanded", "true");
});

test("Link Performance names where links lead and draws a picked link's clicks per day", async ({ page, owner }) => {
  seed(owner);
  await chooseMarch(page);
  await page.getByRole("tab", { name: "Link Performance" }).click();
  await expect(page.getByRole("row", { name: /My Card/ })).toContainText("Contact Card");
  await expect(page.getByRole("row", { name: /My Card/ })).not.toContainText("#");
  await expect(page.getByRole("row", { name: /My Shop/ })).toContainText("https://shop.example/");

  const select = page.getByLabel("Clicks over time for");
  await expect(select).toHaveValue(/.+/);
  await select.selectOption({ label: "My Card" });
  const chart = page.getByRole("group", { name: "Clicks per day: My Card" });
  await chart.focus();
  await page.keyboard.press("Home");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(chart.getByRole("status")).toHaveText("Mar 03, 2025: 2 clicks");
  await select.selectOption({ label: "My Shop" });
  await page.getByRole("button", { name: "Show as table" }).click();
  const table = page.getByRole("table", { name: "Clicks per day: My Shop" });
  await expect(table.getByRole("row", { name: "Mar 06, 2025" })).toContainText("1");
  await expect(table.getByRole("row", { name: "Mar 03, 2025" })).toContainText("0");
});

test("Traffic Sources groups referrers by site and adds countries by name and campaigns", async ({ page, owner }) => {
  seed(owner);
  await chooseMarch(page);
  await page.getByRole("tab", { name: "Traffic Sources" }).click();
  const referrers = page.getByRole("table", { name: "Referrers" });
  await expect(referrers.getByRole("row", { name: /Instagram/ })).toContainText("2 (50%)");
  await expect(referrers.getByRole("row", { name: /^X/ })).toContainText("1 (25%)");
  await expect(referrers.getByRole("row", { name: /Direct/ })).toContainText("1 (25%)");
  const countries = page.getByRole("table", { name: "Countries" });
  await expect(countries.getByRole("columnheader")).toHaveText(["Country", "Page Views"]);
  await expect(countries.getByRole("rowheader", { name: "Germany (DE)" })).toBeVisible();
  await expect(countries.getByRole("rowheader", { name: "France (FR)" })).toBeVisible();
  await expect(countries.getByRole("rowheader", { name: "Unknown" })).toBeVisible();
  const campaigns = page.getByRole("table", { name: "Campaigns" });
  await expect(campaigns.getByRole("columnheader")).toHaveText(["Source", "Medium", "Campaign", "Page Views"]);
  await expect(campaigns.getByRole("row", { name: /newsletter/ }).getByRole("cell")).toHaveText(["newsletter", "email", "spring", "1"]);
});

test("the screen works 320 px wide: no sideways scrolling, chart and tabs reachable", async ({ page, owner }) => {
  await page.setViewportSize({ width: 320, height: 720 });
  seed(owner);
  await chooseMarch(page);
  const chart = page.getByRole("group", { name: "Page views per day" });
  await expect(chart).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const box = (await chart.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(320);
  await page.getByRole("tab", { name: "Traffic Sources" }).click();
  await expect(page.getByRole("table", { name: "Campaigns" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
});
