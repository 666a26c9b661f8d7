/**
 * E-mail, phone and text-message links (ADR 144) and URLs typed without a scheme (ADR 145), as an
 * owner meets them in the Add Link dialog and a visitor on the page: the field shows what is saved,
 * a malformed contact link is refused with what to fix, and the published buttons open the mail or
 * phone app, with the click counted and nothing refused by the page's Content-Security-Policy.
 */
import { and, eq } from "drizzle-orm";
import type { Page } from "@playwright/test";
import { newId } from "#db/ids.ts";
import { analyticsEvents, links, userProfiles } from "#db/schema.ts";
import { expectNoAxeViolations } from "./axe.ts";
import { E2E } from "./env.ts";
import { e2eDb, expect, signInAs, test } from "./fixtures.ts";

const dialog = (page: Page) => page.getByRole("dialog", { name: /Add New Link|Edit Link/ });
const urlBox = (page: Page) => dialog(page).getByRole("textbox", { name: "URL", exact: true });

async function openAdd(page: Page) {
  await page.getByRole("button", { name: /Add Component|Add Your First Link/ }).first().click();
  await expect(page.getByRole("dialog", { name: "Add New Link" })).toBeVisible();
}
async function add(page: Page, title: string) {
  await dialog(page).getByRole("button", { name: "Add Link" }).click();
  await expect(dialog(page)).toBeHidden();
  await expect(page.getByTestId("link-row").filter({ hasText: title })).toBeVisible();
}

test("an address typed without a scheme, an e-mail and a phone link: completed in the field, refused when malformed", async ({ page, owner }) => {
  await page.goto("/dashboard/links");
  await expect(page.getByText("No links yet")).toBeVisible();

  // "shop.example.com" becomes https://shop.example.com in the field as focus leaves it.
  await openAdd(page);
  await dialog(page).getByLabel("Title").fill("My shop");
  await urlBox(page).fill("shop.example.com/sale");
  await expect(urlBox(page)).toHaveAccessibleDescription(/email address or phone number/);
  await urlBox(page).press("Tab");
  await expect(urlBox(page)).toHaveValue("https://shop.example.com/sale");
  await add(page, "My shop");

  // Typed and saved at once, without leaving the field: the field shows it first.
  await openAdd(page);
  await dialog(page).getByLabel("Title").fill("Blog");
  await urlBox(page).fill("blog.example.com");
  await urlBox(page).press("Enter");
  await expect(dialog(page)).toBeHidden();
  await expect(page.getByTestId("link-row").filter({ hasText: "Blog" })).toContainText("https://blog.example.com");

  // E-mail me: the quick start puts mailto: in the field and a title; a second address is refused.
  await openAdd(page);
  await dialog(page).getByRole("button", { name: "E-mail me" }).click();
  await expect(dialog(page).getByLabel("Title")).toHaveValue("E-mail me");
  await expect(urlBox(page)).toBeFocused();
  await expect(urlBox(page)).toHaveValue("mailto:");
  await page.keyboard.type("hello@example.com,boss@example.com");
  await dialog(page).getByRole("button", { name: "Add Link" }).click();
  const mailMessage = "Please enter one email address, like mailto:you@example.com (a subject is optional)";
  await expect(urlBox(page)).toHaveAccessibleDescription(mailMessage);
  await expect(urlBox(page)).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page, "the link dialog with an e-mail link refused");
  await urlBox(page).fill("mailto:hello@example.com?subject=Hello there");
  await urlBox(page).blur();
  await expect(urlBox(page)).toHaveValue("mailto:hello@example.com?subject=Hello%20there");
  await add(page, "E-mail me");

  // Call me: a number without its country code is refused; typed with spaces, it is tidied.
  await openAdd(page);
  await dialog(page).getByRole("button", { name: "Call me" }).click();
  await expect(urlBox(page)).toHaveValue("tel:+");
  await urlBox(page).fill("tel:4155550123");
  await dialog(page).getByRole("button", { name: "Add Link" }).click();
  await expect(urlBox(page)).toHaveAccessibleDescription("Please enter the number with its country code, like tel:+14155550123");
  await urlBox(page).fill("+1 (415) 555-0123");
  await urlBox(page).blur();
  await expect(urlBox(page)).toHaveValue("tel:+14155550123");
  await add(page, "Call me");

  const stored = e2eDb().select({ title: links.title, url: links.url }).from(links).where(eq(links.userId, owner.userId)).all();
  expect(Object.fromEntries(stored.map((l) => [l.title, l.url]))).toEqual({
    "My shop": "https://shop.example.com/sale",
    Blog: "https://blog.example.com",
    "E-mail me": "mailto:hello@example.com?subject=Hello%20there",
    "Call me": "tel:+14155550123",
  });
  for (const title of ["E-mail me", "Call me"]) await expect(page.getByTestId("link-row").filter({ hasText: title })).not.toContainText("Invalid URL");
});

test("on the published page e-mail and phone buttons are plain links, no new window, the click counted, nothing refused by the page's CSP", async ({ page, context, owner }) => {
  const db = e2eDb();
  const mailId = newId();
  db.insert(links)
    .values([
      { id: newId(), userId: owner.userId, title: "My shop", url: "https://shop.example.com/sale", orderIndex: 0 },
      { id: mailId, userId: owner.userId, title: "E-mail me", url: "mailto:hello@example.com?subject=Hello%20there", orderIndex: 1 },
      { id: newId(), userId: owner.userId, title: "Call me", url: "tel:+14155550123", orderIndex: 2 },
      { id: newId(), userId: owner.userId, title: "Text me", url: "sms:+14155550123", orderIndex: 3 },
    ])
    .run();
  const res = await context.request.post("/api/publish", { headers: { Origin: E2E.origin } });
  expect(res.status()).toBe(200);
  const problems: string[] = [];
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("pageerror", (e) => problems.push(e.message));
  await page.goto(`/${owner.username}`);
  await page.getByRole("button", { name: "Accept All" }).click();
  const mail = page.getByRole("link", { name: "E-mail me" });
  await expect(mail).toHaveAttribute("href", "mailto:hello@example.com?subject=Hello%20there");
  await expect(page.getByRole("link", { name: "Call me" })).toHaveAttribute("href", "tel:+14155550123");
  await expect(page.getByRole("link", { name: "Text me" })).toHaveAttribute("href", "sms:+14155550123");
  for (const name of ["E-mail me", "Call me", "Text me"]) {
    const l = page.getByRole("link", { name });
    expect(await l.getAttribute("target"), name).toBeNull();
    expect(await l.getAttribute("rel"), name).toBeNull();
  }
  await expect(page.getByRole("link", { name: "My shop" })).toHaveAttribute("rel", "noopener");
  await expectNoAxeViolations(page, "a page with e-mail and phone buttons");
  // The mail app is the browser's business; the page only counts the click on its way there.
  await mail.evaluate((a) => a.addEventListener("click", (e) => e.preventDefault()));
  const beacon = page.waitForRequest((r) => r.url().endsWith("/api/visitor/track") && (r.postData() ?? "").includes(mailId));
  await mail.click();
  await beacon;
  await expect
    .poll(() => db.select().from(analyticsEvents).where(and(eq(analyticsEvents.userId, owner.userId), eq(analyticsEvents.kind, "link_click"), eq(analyticsEvents.linkId, mailId))).all().length)
    .toBe(1);
  expect(problems).toEqual([]);
});

test("the demo page's own dashboard marks no link invalid: its Say hello e-mail link is accepted", async ({ page, context }) => {
  const demo = e2eDb().select({ userId: userProfiles.userId }).from(userProfiles).where(eq(userProfiles.username, "demo")).get()!;
  await signInAs(context, { userId: demo.userId, username: "demo", email: "demo@plinth.localhost", password: E2E.demoPassword });
  await page.goto("/dashboard/links");
  const row = page.getByTestId("link-row").filter({ hasText: "Say hello" });
  await expect(row).toContainText("mailto:hello@example.com");
  await expect(page.getByText("Invalid URL")).toHaveCount(0);
  await page.goto("/demo");
  await expect(page.getByRole("link", { name: "Say hello" })).toHaveAttribute("href", "mailto:hello@example.com");
});
