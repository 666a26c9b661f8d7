/**
 * A visitor on a published page, in Chromium: the page, its dialogs (QR code, contact card, share,
 * report, lead magnet), the cookie banner, the analytics beacons, and the page with the API down.
 */
import { readFileSync } from "node:fs";
import { and, eq } from "drizzle-orm";
import type { Page } from "@playwright/test";
import { analyticsEvents, collectedLeads, links, linkLists, pageReports, socialLinks, userProfiles } from "#db/schema.ts";
import { newId } from "#db/ids.ts";
import { publishPage } from "#renderer/publish.ts";
import { readOutbox } from "#tests/support/mail.ts";
import { E2E } from "./env.ts";
import { createOwner, e2eDb, expect, test, type TestOwner } from "./fixtures.ts";

/** Each message's recipient, subject and decoded text (long lines are wrapped in the raw file). */
const outbox = () => readOutbox(E2E.outboxDir).map((m) => `${m.to}\n${m.subject}\n${m.text}`);

/** A Plus owner's page with one link of each kind, published. */
async function publishedOwner(): Promise<TestOwner & { linkIds: Record<string, string> }> {
  const owner = await createOwner({ plan: "plus" });
  const db = e2eDb();
  db.update(userProfiles).set({ displayName: "Public Tester", bio: "Hello <b>visitors</b>", longFormText: "About me, at length." }).where(eq(userProfiles.userId, owner.userId)).run();
  const listId = newId();
  db.insert(linkLists).values({ id: listId, userId: owner.userId, title: "My shop", orderIndex: 0 }).run();
  const linkIds: Record<string, string> = {};
  const add = (key: string, v: Partial<typeof links.$inferInsert>, i: number) => {
    linkIds[key] = newId();
    db.insert(links).values({ id: linkIds[key], userId: owner.userId, title: key, url: "https://example.com/", orderIndex: i, ...v }).run();
  };
  add("My Website", { url: "https://example.com/site" }, 1);
  add("Section", { linkType: "label", url: "#" }, 2);
  add("Free Guide", { linkType: "lead_magnet", url: "#", linkSpecificData: { description: "A short guide", fileUrl: "https://files.example/guide.pdf" } }, 3);
  add("Save my contact", { linkType: "vcf", url: "#", linkSpecificData: { name: "Public Tester", phone: "+1 555 0100", email: "tester@example.com" } }, 4);
  add("Tip jar", { linkType: "donation", url: "https://example.com/tip", linkSpecificData: { message: "Thank you!" } }, 5);
  add("Prints", { url: "https://example.com/prints", parentListId: listId }, 6);
  db.insert(socialLinks).values({ id: newId(), userId: owner.userId, platform: "github", url: "https://github.com/plinth", displayOrder: 1 }).run();
  const res = publishPage(db, owner.userId, { publishedDir: E2E.publishedDir, origin: E2E.origin, apiOrigin: E2E.origin, now: new Date() });
  expect(res.ok).toBe(true);
  return { ...owner, linkIds };
}

/** Fails the test on any script error, console error or request that leaves this machine's origin. */
function watch(page: Page) {
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  page.on("request", (r) => {
    const u = r.url();
    if (!u.startsWith(E2E.origin) && !u.startsWith("data:") && !u.startsWith("https://example.com/")) problems.push(`third-party request: ${u}`);
  });
  return problems;
}

/** External destinations answer locally: the test machine has no network. */
async function fakeExternalSites(page: Page) {
  await page.route("https://example.com/**", (route) => route.fulfill({ contentType: "text/html", body: "<title>Destination</title><h1>Destination</h1>" }));
}

test("a visitor sees the page and uses the QR code and contact card dialogs", async ({ page }) => {
  const owner = await publishedOwner();
  const problems = watch(page);
  await page.goto(`/${owner.username}`);
  await expect(page).toHaveTitle("Public Tester");
  await expect(page.getByRole("heading", { level: 1, name: "Public Tester" })).toBeVisible();
  await expect(page.getByText("Hello <b>visitors</b>")).toBeVisible();
  await expect(page.getByRole("link", { name: "My Website" })).toHaveAttribute("href", "https://example.com/site");
  await expect(page.getByRole("heading", { level: 2, name: "Section" })).toBeVisible();
  await expect(page.getByText("Thank you!")).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "My shop" })).toBeVisible();
  await expect(page.getByRole("region", { name: "My shop" }).getByRole("link", { name: "Prints" })).toBeVisible();
  await expect(page.getByText("About me, at length.")).toBeVisible();
  await expect(page.getByRole("link", { name: "GitHub" })).toHaveAttribute("href", "https://github.com/plinth");
  await page.getByRole("button", { name: "Accept All" }).click();

  await page.getByRole("button", { name: "Show QR code" }).click();
  const qr = page.getByRole("dialog", { name: "QR Code" });
  await expect(qr).toBeVisible();
  const img = qr.getByRole("img", { name: /QR code for/ });
  await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBeGreaterThan(0);
  await expect(qr.getByText(`${E2E.origin}/${owner.username}`)).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(qr).toBeHidden();

  await page.getByRole("link", { name: "Save my contact" }).click();
  const card = page.getByRole("dialog", { name: "Public Tester" });
  await expect(card).toBeVisible();
  await expect(card.getByRole("link", { name: "+1 555 0100" })).toHaveAttribute("href", "tel:+15550100");
  await expect(card.getByRole("link", { name: "tester@example.com" })).toHaveAttribute("href", "mailto:tester@example.com");
  const [download] = await Promise.all([page.waitForEvent("download"), card.getByRole("link", { name: "Download contact card" }).click()]);
  const vcf = readFileSync((await download.path())!, "utf8");
  expect(vcf).toContain("FN:Public Tester");
  expect(vcf).toContain("TEL;TYPE=CELL:+1 555 0100");
  await card.getByRole("button", { name: "Close" }).click();
  await expect(card).toBeHidden();
  expect(problems).toEqual([]);
});

test.describe("share", () => {
  test("uses the device's share sheet when there is one", async ({ page }) => {
    const owner = await publishedOwner();
    await page.addInitScript(() => {
      (window as unknown as { shared: unknown[] }).shared = [];
      Object.defineProperty(navigator, "share", { value: (data: unknown) => ((window as unknown as { shared: unknown[] }).shared.push(data), Promise.resolve()) });
    });
    await page.goto(`/${owner.username}`);
    await page.getByRole("button", { name: "Share This Page" }).click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { shared: unknown[] }).shared)).toEqual([{ title: "Public Tester", url: `${E2E.origin}/${owner.username}` }]);
  });

  test("opens a share dialog otherwise: copy the link, the main networks, the QR code; focus goes back to the button", async ({ page, context }) => {
    const owner = await publishedOwner();
    const problems = watch(page);
    const url = `${E2E.origin}/${owner.username}`;
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: E2E.origin });
    await page.addInitScript(() => Object.defineProperty(navigator, "share", { value: undefined }));
    await page.goto(`/${owner.username}`);
    await page.getByRole("button", { name: "Accept All" }).click();
    const opener = page.getByRole("button", { name: "Share This Page" });
    // By keyboard: the dialog opens with the focus inside it.
    await opener.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Share This Page" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("textbox", { name: "Page link" })).toHaveValue(url);
    await expect(dialog.getByRole("textbox", { name: "Page link" })).toBeFocused();

    await dialog.getByRole("button", { name: "Copy Link" }).click();
    await expect(dialog.getByRole("status")).toHaveText("Link copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

    // Plain share links, each with the page's address; nothing of theirs loads on the page.
    const u = encodeURIComponent(url);
    const t = encodeURIComponent("Public Tester");
    const networks = dialog.getByRole("list", { name: "Share on" }).getByRole("link");
    await expect(networks).toHaveText(["X", "Facebook", "LinkedIn", "WhatsApp", "Telegram", "Email"]);
    const hrefs = await networks.evaluateAll((as) => as.map((a) => [a.getAttribute("href"), a.getAttribute("target"), a.getAttribute("rel")]));
    expect(hrefs).toEqual([
      [`https://x.com/intent/post?url=${u}&text=${t}`, "_blank", "noopener"],
      [`https://www.facebook.com/sharer/sharer.php?u=${u}`, "_blank", "noopener"],
      [`https://www.linkedin.com/sharing/share-offsite/?url=${u}`, "_blank", "noopener"],
      [`https://wa.me/?text=${t}%20${u}`, "_blank", "noopener"],
      [`https://t.me/share/url?url=${u}&text=${t}`, "_blank", "noopener"],
      [`mailto:?subject=${t}&body=${u}`, "_blank", "noopener"],
    ]);
    const qr = dialog.getByRole("img", { name: `QR code for ${url}` });
    await expect.poll(() => qr.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBeGreaterThan(0);
    await expect(dialog.getByRole("link", { name: "Download QR code" })).toHaveAttribute("download", `${owner.username}-qr.svg`);

    // Escape, then Close: each time the focus is back on the button that opened it, and the copy note is gone.
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText("Link copied")).toHaveCount(0);
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
    expect(problems).toEqual([]);
  });

  test("says 'Copy failed' in the share dialog when the address cannot be copied", async ({ page }) => {
    const owner = await publishedOwner();
    await page.addInitScript(() => {
      Object.defineProperty(navigator, "share", { value: undefined });
      Object.defineProperty(navigator, "clipboard", { value: { writeText: () => Promise.reject(new Error("denied")) } });
      document.execCommand = () => false;
    });
    await page.goto(`/${owner.username}`);
    await page.getByRole("button", { name: "Share This Page" }).click();
    const dialog = page.getByRole("dialog", { name: "Share This Page" });
    await dialog.getByRole("button", { name: "Copy Link" }).click();
    const status = dialog.getByRole("status");
    await expect(status).toContainText("Copy failed");
    await expect(status).toContainText("Unable to copy the link. Please try again.");
  });
});

test("report: a reason is required, a failure is explained, a report is stored", async ({ page }) => {
  const owner = await publishedOwner();
  await page.goto(`/${owner.username}`);
  await page.getByRole("button", { name: "Report", exact: true }).click();
  const report = page.getByRole("dialog", { name: "Report this page" });
  await report.getByRole("button", { name: "Submit Report" }).click();
  await expect(report.getByRole("alert")).toHaveText("Please select a reason");

  await report.getByLabel("Reason").selectOption({ label: "Impersonation" });
  await report.getByLabel("Details (optional)").fill("Pretends to be <someone>");
  // Closed by Escape or a click beside it, the dialog keeps what the visitor typed (ADR 140).
  await page.keyboard.press("Escape");
  await expect(report).toBeHidden();
  await page.getByRole("button", { name: "Report", exact: true }).click();
  await expect(report.getByLabel("Details (optional)")).toHaveValue("Pretends to be <someone>");
  await page.mouse.click(2, 2);
  await expect(report).toBeHidden();
  await page.getByRole("button", { name: "Report", exact: true }).click();
  await expect(report.getByLabel("Reason")).toHaveValue("impersonation");
  await expect(report.getByLabel("Details (optional)")).toHaveValue("Pretends to be <someone>");
  await page.route("**/api/visitor/report", (r) => r.abort());
  await report.getByRole("button", { name: "Submit Report" }).click();
  await expect(report.getByText("Report failed")).toBeVisible();
  await expect(report.getByText("Unable to submit your report. Please try again.")).toBeVisible();

  await page.unroute("**/api/visitor/report");
  await report.getByRole("button", { name: "Submit Report" }).click();
  await expect(report).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Report submitted" })).toBeVisible();
  const rows = e2eDb().select().from(pageReports).where(eq(pageReports.reportedPageUsername, owner.username)).all();
  expect(rows).toMatchObject([{ reason: "impersonation", details: "Pretends to be <someone>" }]);
});

test("lead magnet: an e-mail is required, a failure is explained, the link is e-mailed", async ({ page }) => {
  const owner = await publishedOwner();
  await page.goto(`/${owner.username}`);
  await page.getByRole("button", { name: "Free Guide" }).click();
  const lead = page.getByRole("dialog", { name: "Free Guide" });
  await expect(lead.getByText("A short guide")).toBeVisible();
  await lead.getByRole("button", { name: "Send Download Link" }).click();
  await expect(lead.getByRole("alert")).toHaveText("Please enter your email address");
  await lead.getByLabel("Email address").fill("not-an-address");
  await lead.getByRole("button", { name: "Send Download Link" }).click();
  await expect(lead.getByRole("alert")).toHaveText("Please enter a valid email address");

  const email = `${owner.username}-fan@example.com`;
  await lead.getByLabel("Email address").fill(`  ${email} `);
  // Closed by Escape or a click beside it and opened again, the dialog keeps the address, without
  // the last message (ADR 140).
  await page.keyboard.press("Escape");
  await expect(lead).toBeHidden();
  await page.getByRole("button", { name: "Free Guide" }).click();
  await expect(lead.getByLabel("Email address")).toHaveValue(email);
  await expect(lead.getByText("Please enter a valid email address")).toHaveCount(0);
  await page.mouse.click(2, 2);
  await expect(lead).toBeHidden();
  await page.getByRole("button", { name: "Free Guide" }).click();
  await expect(lead.getByLabel("Email address")).toHaveValue(email);
  await page.route("**/api/visitor/lead", (r) => r.fulfill({ status: 500, body: "" }));
  await lead.getByRole("button", { name: "Send Download Link" }).click();
  await expect(lead.getByRole("alert")).toHaveText("Failed to send download link. Please try again.");
  await page.unroute("**/api/visitor/lead");
  await lead.getByRole("button", { name: "Send Download Link" }).click();
  await expect(lead.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await expect(lead.getByText(`We sent the download link to ${email}.`)).toBeVisible();
  await expect(lead.getByRole("link", { name: "Download now" })).toHaveAttribute("href", "https://files.example/guide.pdf");
  await expect.poll(() => outbox().some((m) => m.includes(email) && m.includes("https://files.example/guide.pdf"))).toBe(true);
  expect(e2eDb().select().from(collectedLeads).where(eq(collectedLeads.userId, owner.userId)).all()).toMatchObject([{ email, linkTitle: "Free Guide" }]);
  await lead.getByRole("button", { name: "Close" }).click();
  await expect(lead).toBeHidden();
  // Opened again, it asks again, with the address kept for the next download.
  await page.getByRole("button", { name: "Free Guide" }).click();
  await expect(lead.getByRole("button", { name: "Send Download Link" })).toBeVisible();
  await expect(lead.getByRole("heading", { name: "Check your email" })).toBeHidden();
  await expect(lead.getByRole("link", { name: "Download now" })).toBeHidden();
  await expect(lead.getByLabel("Email address")).toHaveValue(email);
});

test("cookie banner: customise, decline, accept, reopen from the footer; consent kept in localStorage", async ({ page }) => {
  const owner = await publishedOwner();
  await page.goto(`/${owner.username}`);
  const banner = page.getByRole("region", { name: "Cookies on this page" });
  await expect(banner).toBeVisible();
  await expect(banner.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", `${E2E.origin}/privacy`);
  const consent = () => page.evaluate(() => JSON.parse(localStorage.getItem("plinth-consent") ?? "null"));

  const customize = banner.getByRole("button", { name: "Customize" });
  await expect(customize).toHaveAttribute("aria-expanded", "false");
  await customize.click();
  // The open panel takes the button's place (issue 25: no stray Customize under it).
  await expect(banner.getByRole("group", { name: "Cookie preferences" })).toBeVisible();
  await expect(customize).toBeHidden();
  await expect(banner.getByRole("checkbox", { name: /Essential/ })).toBeChecked();
  await expect(banner.getByRole("checkbox", { name: /Essential/ })).toBeDisabled();
  await banner.getByRole("checkbox", { name: /Analytics/ }).check();
  await banner.getByRole("button", { name: "Save Preferences" }).click();
  await expect(banner).toBeHidden();
  const saved = await consent();
  expect(saved).toEqual({ essential: true, analytics: true, marketing: false, timestamp: expect.any(String) });
  expect(Number.isNaN(Date.parse(saved.timestamp))).toBe(false);

  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(banner).toBeHidden();
  await page.getByRole("button", { name: "Cookie Settings" }).click();
  await expect(banner).toBeVisible();
  await expect(banner.getByRole("checkbox", { name: /Analytics/ })).toBeChecked();
  await expect(banner.getByRole("checkbox", { name: /Marketing/ })).not.toBeChecked();
  await banner.getByRole("button", { name: "Decline Non-Essential" }).click();
  await expect(banner).toBeHidden();
  expect(await consent()).toMatchObject({ essential: true, analytics: false, marketing: false });
  await page.getByRole("button", { name: "Cookie Settings" }).click();
  await banner.getByRole("button", { name: "Accept All" }).click();
  expect(await consent()).toMatchObject({ essential: true, analytics: true, marketing: true });
});

test("analytics: a page view on load and a click for each link, sent without cookies; links keep their href", async ({ page }) => {
  const owner = await publishedOwner();
  await fakeExternalSites(page);
  const beacons: { cookie?: string; body: string }[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/api/visitor/track")) beacons.push({ cookie: r.headers().cookie, body: r.postData() ?? "" });
  });
  const events = (kind: "page_view" | "link_click") =>
    e2eDb().select().from(analyticsEvents).where(and(eq(analyticsEvents.userId, owner.userId), eq(analyticsEvents.kind, kind))).all();
  await page.goto(`/${owner.username}`);
  await expect.poll(() => events("page_view").length).toBe(1);
  await page.getByRole("link", { name: "My Website" }).click();
  await expect(page).toHaveURL("https://example.com/site");
  await expect.poll(() => events("link_click").map((e) => e.linkId)).toEqual([owner.linkIds["My Website"]]);
  expect(beacons.every((b) => b.cookie === undefined)).toBe(true);
  expect(beacons.map((b) => JSON.parse(b.body).type)).toEqual(["page_view", "link_click"]);
});

test("the page works with the API down", async ({ page }) => {
  const owner = await publishedOwner();
  await fakeExternalSites(page);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.route(`${E2E.origin}/api/**`, (r) => r.abort());
  await page.goto(`/${owner.username}`);
  await page.getByRole("button", { name: "Decline Non-Essential" }).click();
  await page.getByRole("button", { name: "Show QR code" }).click();
  await expect(page.getByRole("dialog", { name: "QR Code" })).toBeVisible();
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Free Guide" }).click();
  const lead = page.getByRole("dialog", { name: "Free Guide" });
  await lead.getByLabel("Email address").fill("fan@example.com");
  await lead.getByRole("button", { name: "Send Download Link" }).click();
  await expect(lead.getByRole("alert")).toHaveText("Failed to send download link. Please try again.");
  await page.keyboard.press("Escape");
  await page.getByRole("link", { name: "Tip jar" }).click();
  await expect(page).toHaveURL("https://example.com/tip");
  await expect(page.getByRole("heading", { name: "Destination" })).toBeVisible();
  expect(errors).toEqual([]);
});

test("keyboard and small screens: every control is reachable, nothing scrolls sideways at 320 px", async ({ page }) => {
  const owner = await publishedOwner();
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto(`/${owner.username}`);
  await page.getByRole("button", { name: "Accept All" }).click();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  const reached: string[] = [];
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press("Tab");
    reached.push(await page.evaluate(() => document.activeElement?.getAttribute("aria-label") || document.activeElement?.textContent?.trim() || ""));
  }
  expect(reached).toEqual(expect.arrayContaining(["GitHub", "Show QR code", "My Website", "Free Guide", "Save my contact", "Tip jar", "Prints", "Share This Page", "Report", "Cookie Settings"]));
  // A dialog opened from the keyboard takes the focus and gives it back.
  await page.getByRole("button", { name: "Report", exact: true }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog", { name: "Report this page" })).toBeVisible();
  await expect(page.getByLabel("Reason")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Report", exact: true })).toBeFocused();
});
