/**
 * Analytics as an owner meets it: the share prompt before the first visit, then real counts from real
 * visits to the published page, the range and its labels, a refused range, the tabs and the exports.
 * dashboard-analytics-charts.spec.ts walks the charts and the detailed parts, dashboard-analytics-plans.spec.ts
 * what Lite and Plus see.
 */
import { readFileSync } from "node:fs";
import { newId } from "#db/ids.ts";
import { links } from "#db/schema.ts";
import { recordEvents } from "#api/services/analytics-store.ts";
import { publishPage } from "#renderer/publish.ts";
import { E2E } from "./env.ts";
import { e2eDb, expect, test } from "./fixtures.ts";

const DAY = 86_400_000;
/** A visitor's browser: headless Chromium names itself in its user agent and would count as a bot. */
const VISITOR_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36";

test("before the first visit the screen asks the owner to share the page, and Share copies its address", async ({ page, context, owner }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/dashboard/analytics");
  await expect(page.getByRole("heading", { name: "Analytics", exact: true })).toBeVisible();
  await expect(page.getByText("Track your page performance and link engagement")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Share your page to start seeing analytics!" })).toBeVisible();
  await expect(page.getByText("Once people start visiting your page and clicking your links, you'll see detailed analytics here.")).toBeVisible();
  await page.evaluate(() => Object.defineProperty(navigator, "share", { value: undefined }));
  await page.getByRole("button", { name: "Share Your Page" }).click();
  await expect(page.getByText("Link copied to clipboard")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${E2E.origin}/${owner.username}`);
});

test("real visits and clicks on the published page show up per page and per link", async ({ browser, page, owner }) => {
  const db = e2eDb();
  db.insert(links).values({ id: newId(), userId: owner.userId, title: "My Shop", url: "https://shop.example/", orderIndex: 0 }).run();
  db.insert(links).values({ id: newId(), userId: owner.userId, title: "My Blog", url: "https://blog.example/", orderIndex: 1 }).run();
  expect(publishPage(db, owner.userId, { publishedDir: E2E.publishedDir, origin: E2E.origin, now: new Date() }).ok).toBe(true);

  // One visitor opens the page twice and clicks the shop link (its real href stays, the beacon
  // records the click): two page views, one visitor.
  const visitor = await browser.newContext({ userAgent: VISITOR_UA });
  const v = await visitor.newPage();
  await v.route("https://shop.example/**", (r) => r.fulfill({ status: 200, body: "shop" }));
  await v.goto(`/${owner.username}`);
  await v.goto(`/${owner.username}`);
  await v.getByRole("link", { name: "My Shop" }).click();
  await expect(v).toHaveURL("https://shop.example/");
  await visitor.close();

  await page.goto("/dashboard/analytics");
  const card = (name: string) => page.getByRole("tabpanel", { name: "Overview" }).getByText(name, { exact: true }).locator("..");
  await expect(async () => {
    await page.reload();
    await expect(card("Page Views")).toContainText("2", { timeout: 1000 });
    await expect(card("Link Clicks")).toContainText("1", { timeout: 1000 });
  }).toPass();
  await expect(card("Email Leads")).toContainText("0");
  // Visitors sits beside Page Views, and the reload counts once.
  await expect(card("Page Views").locator("p").nth(1)).toHaveText("2");
  await expect(card("Visitors").locator("p").nth(1)).toHaveText("1");
  await expect(page.getByText("Available during trial")).toBeVisible();

  await page.getByRole("tab", { name: "Link Performance" }).click();
  const shop = page.getByRole("row", { name: /My Shop/ });
  await expect(shop).toContainText("https://shop.example/");
  await expect(shop.getByRole("cell").nth(2)).toHaveText("1");
  await expect(shop).toContainText("50.0%");
  await expect(page.getByRole("row", { name: /My Blog/ })).toContainText("0.0%");

  await page.getByRole("tab", { name: "Traffic Sources" }).click();
  await expect(page.getByText("Desktop", { exact: true })).toBeVisible();
  await expect(page.getByText("Direct", { exact: true })).toBeVisible();
});

test("the range changes the numbers; exports download the range as CSV and JSON", async ({ page, owner }) => {
  const db = e2eDb();
  const now = Date.now();
  for (const at of [now - 1 * 3600_000, now - 20 * DAY, now - 60 * DAY]) {
    recordEvents(db, [{ userId: owner.userId, kind: "page_view", device: "mobile", referrerDomain: "instagram.com", occurredAt: new Date(at) }]);
  }
  await page.goto("/dashboard/analytics");
  const views = page.getByText("Page Views", { exact: true }).locator("..");
  await expect(views).toContainText("2");

  await page.getByRole("button", { name: /Date range/ }).click();
  await page.getByRole("button", { name: "Last 7 days" }).click();
  await expect(views).toContainText("1");
  await page.getByRole("button", { name: /Date range/ }).click();
  await page.getByRole("button", { name: "Last 90 days" }).click();
  await expect(views).toContainText("3");

  // A chosen range reads 'MMM dd - MMM dd' on its button, days with two digits, and adds the year
  // when the range is not in the current year.
  const picker = page.getByRole("button", { name: /Date range/ });
  const choose = async (from: string, to: string) => {
    await picker.click();
    await page.getByLabel("From").fill(from);
    await page.getByLabel("To").fill(to);
    await page.getByRole("button", { name: "Apply" }).click();
  };
  const year = new Date().getFullYear();
  await choose(`${year}-03-05`, `${year}-03-09`);
  await expect(picker).toHaveText("Mar 05 - Mar 09");
  await choose(`${year - 1}-12-20`, `${year}-01-02`);
  await expect(picker).toHaveText(`Dec 20, ${year - 1} - Jan 02, ${year}`);

  // Over the longest range the server answers, the screen says so and the old numbers go.
  await picker.click();
  await page.getByRole("button", { name: "Last 90 days" }).click();
  await expect(views).toContainText("3");
  await choose(`${year - 2}-01-01`, `${year}-01-10`);
  await expect(page.getByRole("alert")).toHaveText("Choose a range of at most 367 days");
  await expect(page.getByText("Page Views", { exact: true })).toHaveCount(0);
  await expect(picker).toHaveText(`Jan 01, ${year - 2} - Jan 10, ${year}`);
  await picker.click();
  await page.getByRole("button", { name: "Last 90 days" }).click();
  await expect(views).toContainText("3");

  // The export names the range as the picker shows it: the last day included is today.
  const [first, today] = await page.evaluate(() => {
    const d = (x: Date) => `${x.getFullYear()}-${String(x.getMonth() + 1).padStart(2, "0")}-${String(x.getDate()).padStart(2, "0")}`;
    const now = new Date();
    return [d(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 89)), d(now)];
  });
  await page.getByRole("button", { name: "Export" }).click();
  const [csv] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "Export to CSV" }).click()]);
  expect(csv.suggestedFilename()).toBe(`plinth-analytics-${owner.username}-${first}-to-${today}.csv`);
  const text = readFileSync((await csv.path())!, "utf8");
  expect(text).toContain(`"Plinth analytics","${first} to ${today}"`);
  expect(text).toContain('"Page Views","Link Clicks","Email Leads"');
  expect(text).toContain('"Instagram",3');

  await page.getByRole("button", { name: "Export" }).click();
  const [json] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "Export to JSON" }).click()]);
  expect(json.suggestedFilename()).toBe(`plinth-analytics-${owner.username}-${first}-to-${today}.json`);
  const report = JSON.parse(readFileSync((await json.path())!, "utf8"));
  expect(report.totals.pageViews).toBe(3);
  expect(report.range).toMatchObject({ first, last: today });
});
