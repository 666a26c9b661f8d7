/**
 * The content pages of the public site (issue 7): features, pricing from core's plan data, the
 * searchable help, the contact form, the live status page and the legal pages.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { SITE_FEATURES } from "#core/features.ts";
import { LIMITS } from "#core/limits.ts";
import { EDITOR_LINK_TYPES, LINK_TYPE_LABELS } from "#core/link-types.ts";
import { PLAN_NAMES } from "#core/plans.ts";
import { BUTTON_STYLES, FONT_PAIRINGS, THEMES } from "#core/themes.ts";
import { contactMessages } from "#db/schema.ts";
import { E2E } from "./env.ts";
import { e2eDb, expect, test } from "./fixtures.ts";

/** Page time stands still until the test moves it, so nothing advances while the page loads. */
async function stopClock(page: Page) {
  await page.clock.install({ time: new Date("2026-01-01T00:00:00Z") });
  await page.clock.pauseAt(new Date("2026-01-01T00:00:01Z"));
}

const main = (page: Page) => page.getByRole("main");

test("/features names every link type the editor offers, theme, font pairing and button style, every feature of the table, and Promote & Earn at 20%", async ({ page }) => {
  await page.goto("/features");
  for (const t of EDITOR_LINK_TYPES) await expect(main(page).locator(`[data-link-type="${t}"]`).getByRole("heading")).toContainText(LINK_TYPE_LABELS[t]);
  for (const t of THEMES) await expect(main(page).getByText(t.name, { exact: true })).toBeVisible();
  for (const f of FONT_PAIRINGS) await expect(main(page).getByText(`${f.name}:`)).toBeVisible();
  for (const b of BUTTON_STYLES) await expect(main(page).getByText(b, { exact: true })).toBeVisible();
  const all = main(page).getByRole("region", { name: "All features" });
  for (const f of SITE_FEATURES) await expect(all.locator(`[data-feature="${f.id}"]`)).toContainText(f.label);
  await expect(main(page).getByRole("region", { name: "Promote & Earn" })).toContainText("20% commission on every referral");
  await main(page).getByRole("link", { name: "All features" }).click();
  await expect(page).toHaveURL(/#all-features$/);
});

test("/pricing sets Lite against Plus from core's plan data: 8.99 per month and the 7-day trial", async ({ page }) => {
  await page.goto("/pricing");
  const lite = main(page).getByRole("region", { name: PLAN_NAMES.lite, exact: true });
  const plus = main(page).getByRole("region", { name: PLAN_NAMES.plus, exact: true });
  await expect(lite).toContainText("Free");
  await expect(lite).toContainText(`Up to ${LIMITS.LITE_MAX_LINKS} links`);
  await expect(plus).toContainText("$8.99 per month");
  await expect(plus).toContainText(`${LIMITS.TRIAL_DAYS}-day free trial`);
  for (const f of SITE_FEATURES) {
    const [on, off] = f.plan === "lite" ? [lite, plus] : [plus, lite];
    await expect(on.getByText(f.label, { exact: true })).toBeVisible();
    await expect(off.getByText(f.label, { exact: true })).toHaveCount(0);
  }
  const table = main(page).getByRole("table");
  await expect(table.getByRole("row")).toHaveCount(SITE_FEATURES.length + 1);
  for (const f of SITE_FEATURES) {
    const cells = table.locator(`tr[data-feature="${f.id}"] td`);
    await expect(cells.nth(0)).toContainText(f.plan === "lite" ? "Included" : "Not included");
    await expect(cells.nth(1)).toContainText("Included");
  }
  await expect(plus.getByRole("link", { name: `Start your ${LIMITS.TRIAL_DAYS}-day free trial` })).toHaveAttribute("href", "/auth/signup");
});

test("/help filters the FAQ as you type and says when nothing matches", async ({ page }) => {
  await page.goto("/help");
  const search = page.getByRole("searchbox", { name: "Search the FAQ" });
  const questions = main(page).locator(".faq:visible");
  const all = await questions.count();
  expect(all).toBeGreaterThan(10);
  await search.fill("trial");
  await expect(page.getByRole("status")).toHaveText(/questions match$/);
  const hits = await questions.count();
  expect(hits).toBeGreaterThan(0);
  expect(hits).toBeLessThan(all);
  await expect(main(page).getByText("How does the free trial work?")).toBeVisible();
  await expect(main(page).getByText("I forgot my password. What now?")).toBeHidden();
  // A match in the answer opens it, so the reason for the match shows.
  await expect(main(page).getByText(`Every new account gets ${LIMITS.TRIAL_DAYS} days of Plus`)).toBeVisible();
  await search.fill("password forgot");
  await expect(questions).toHaveCount(1);
  await search.fill("zebra crossing");
  await expect(questions).toHaveCount(0);
  await expect(main(page).getByText("No questions match your search.")).toBeVisible();
  await search.fill("");
  await expect(questions).toHaveCount(all);
  await page.goto("/help?q=payout");
  await expect(search).toHaveValue("payout");
  await expect(main(page).getByText("How are earnings paid out?")).toBeVisible();
  await expect(main(page).getByText("How do I delete my account?")).toBeHidden();
});

test.describe("/contact", () => {
  test("stores and e-mails a message, and refuses bad input with the field messages", async ({ page }) => {
    const marker = `hello-${Date.now().toString(36)}`;
    await page.goto("/contact");
    const form = main(page);
    await form.getByLabel("Email").fill("not-an-email");
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(form.getByText("Name is required")).toBeVisible();
    await expect(form.getByText("Please enter a valid email address")).toBeVisible();
    await expect(form.getByText("Message is required")).toBeVisible();
    await expect(form.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByLabel("Name")).toBeFocused();
    await expect(page.getByRole("status")).toHaveText("Please correct the fields above.");
    expect(e2eDb().select().from(contactMessages).where(eq(contactMessages.email, "not-an-email")).all()).toHaveLength(0);

    await form.getByLabel("Name").fill("Visitor");
    await form.getByLabel("Email").fill("visitor@example.com");
    await form.getByLabel("Message").fill(`<b>${marker}</b>`);
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByRole("status")).toHaveText("Thank you! Your message has been sent.");
    await expect(form.getByLabel("Message")).toHaveValue("");
    await expect(form.getByLabel("Name")).toHaveAttribute("aria-invalid", "false");
    const rows = e2eDb().select().from(contactMessages).where(eq(contactMessages.message, `<b>${marker}</b>`)).all();
    expect(rows).toMatchObject([{ name: "Visitor", email: "visitor@example.com" }]);
    const mails = existsSync(E2E.outboxDir) ? readdirSync(E2E.outboxDir).map((f) => readFileSync(join(E2E.outboxDir, f), "utf8")) : [];
    const mail = mails.find((m) => m.includes(marker));
    expect(mail).toMatch(/^Reply-To: visitor@example\.com$/m);
  });

  test("shows the server's answer when it refuses, and a clear message when offline", async ({ page }) => {
    await page.goto("/contact");
    const form = main(page);
    await form.getByLabel("Name").fill("Visitor");
    await form.getByLabel("Email").fill("visitor@example.com");
    await form.getByLabel("Message").fill("Hello");
    await page.route("**/api/contact", (route) =>
      route.fulfill({ status: 429, json: { error: { code: "rate_limited", message: "Too many messages. Please try again later." } } }),
    );
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByRole("status")).toHaveText("Too many messages. Please try again later.");
    await page.unroute("**/api/contact");
    await page.route("**/api/contact", (route) => route.abort());
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByRole("status")).toHaveText("Your message could not be sent. Please check your connection and try again.");
    await expect(form.getByRole("button", { name: "Send Message" })).toBeEnabled();
    await expect(form.getByLabel("Message")).toHaveValue("Hello");
  });
});

test.describe("/status", () => {
  test("shows the API and the database as operational and the last publish time", async ({ page }) => {
    await page.goto("/en/status");
    await expect(page.getByRole("status")).toHaveText("All systems operational");
    const row = (name: string) => main(page).locator("dl > div").filter({ has: page.getByText(name, { exact: true }) }).locator("dd");
    await expect(row("API")).toHaveText("Operational");
    await expect(row("Database")).toHaveText("Operational");
    // The demo page was published when the test server started.
    await expect(row("Last publish")).toHaveText(/\d/);
    await expect(row("Last publish")).not.toHaveText("No pages published yet");
  });

  test("is live: it reports a database outage and an unreachable API as they happen", async ({ page }) => {
    await page.goto("/status");
    await expect(page.getByRole("status")).toHaveText("All systems operational");
    await page.route("**/api/status", (route) => route.fulfill({ status: 503, json: { ok: false, db: "unavailable", lastPublishAt: null } }));
    await page.getByRole("button", { name: "Check now" }).click();
    await expect(page.getByRole("status")).toHaveText("Some systems are unavailable");
    await expect(page.locator("#st-api")).toHaveText("Operational");
    await expect(page.locator("#st-db")).toHaveText("Unavailable");
    await page.unroute("**/api/status");
    await page.route("**/api/status", (route) => route.abort());
    await page.getByRole("button", { name: "Check now" }).click();
    await expect(page.locator("#st-api")).toHaveText("Unavailable");
    await expect(page.locator("#st-db")).toHaveText("Unknown");
  });

  test("checks again on its own", async ({ page }) => {
    await stopClock(page);
    let calls = 0;
    await page.route("**/api/status", (route) => {
      calls++;
      return route.fulfill({ json: { ok: true, db: "ok", lastPublishAt: null } });
    });
    await page.goto("/status");
    await expect(page.locator("#st-pub")).toHaveText("No pages published yet");
    expect(calls).toBe(1);
    await page.clock.fastForward(30_000);
    await expect.poll(() => calls).toBe(2);
  });
});

test.describe("legal pages", () => {
  test("/affiliate-terms states the programme's rules", async ({ page }) => {
    await page.goto("/affiliate-terms");
    const text = main(page);
    await expect(text).toContainText("20% commission");
    await expect(text).toContainText("Cash payouts are available from a balance of $20");
    await expect(text).toContainText("3% processing fee");
    await expect(text).toContainText("via PayPal");
    await expect(text).toContainText("3-5 business days");
    await expect(text).toContainText("active Plus subscription");
    await expect(text).toContainText("3 continuous paying months");
  });

  test("/cookies explains what the cookie banner governs", async ({ page }) => {
    await page.goto("/en/cookies");
    const banner = main(page).getByRole("heading", { name: "What the cookie banner governs" });
    await expect(banner).toBeVisible();
    await expect(main(page).getByRole("listitem").filter({ hasText: "Essential" })).toContainText("always on");
    await expect(main(page).getByRole("listitem").filter({ hasText: "Analytics:" })).toContainText("off unless the visitor allows it");
    await expect(main(page).getByRole("listitem").filter({ hasText: "Marketing:" })).toContainText("off unless the visitor allows it");
    await expect(main(page)).toContainText("local storage");
  });

  test("/cookies lists every cookie the server sets", async ({ page }) => {
    // Every cookie name the code defines (NAME_COOKIE = "plinth_…"), read from the source.
    const names = new Set<string>();
    for (const dir of ["api", "core"]) {
      for (const file of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
        if (!file.endsWith(".ts")) continue;
        for (const m of readFileSync(join(dir, file), "utf8").matchAll(/_COOKIE = "(plinth_\w+)"/g)) names.add(m[1]!);
      }
    }
    expect(names.size).toBeGreaterThanOrEqual(6);
    await page.goto("/en/cookies");
    const table = main(page).getByRole("table", { name: "Cookies Plinth sets" });
    for (const name of names) {
      await expect(table.getByRole("row").filter({ has: page.getByRole("cell", { name, exact: true }) }), name).toHaveCount(1);
    }
  });

  test("/privacy and /terms cover the essentials and link each other", async ({ page }) => {
    await page.goto("/privacy");
    for (const h of ["What we store", "Why we store it", "Who else sees it", "How long we keep it", "Your rights"]) {
      await expect(main(page).getByRole("heading", { name: h })).toBeVisible();
    }
    await main(page).getByRole("link", { name: "Cookie Policy" }).click();
    await expect(page).toHaveURL(/\/cookies$/);
    await page.goto("/terms");
    await expect(main(page)).toContainText(`${PLAN_NAMES.plus} costs $8.99 per month`);
    await expect(main(page)).toContainText(`${LIMITS.TRIAL_DAYS}-day Plus trial`);
    await main(page).getByRole("link", { name: "affiliate terms" }).click();
    await expect(page).toHaveURL(/\/affiliate-terms$/);
  });
});
