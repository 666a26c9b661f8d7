import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { contactMessages } from "#db/schema.ts";
import { E2E } from "./env.ts";
import { e2eDb, expect, test } from "./fixtures.ts";

const PAGES = ["features", "pricing", "help", "contact", "status", "privacy", "terms", "cookies"];
const ROUTES = ["/", "/affiliate-terms", ...PAGES.map((p) => `/${p}`), ...PAGES.map((p) => `/en/${p}`)];

test("every public route answers 200", async ({ page }) => {
  for (const route of ROUTES) {
    const res = await page.goto(route);
    expect(res?.status(), route).toBe(200);
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  }
  await page.goto("/");
  await expect(page).toHaveTitle("Plinth: Your Links, Elevated | Link in Bio Platform");
});

test.describe("claim box", () => {
  const box = (page: import("@playwright/test").Page) => page.getByRole("textbox").first();
  const claim = (page: import("@playwright/test").Page) => page.getByRole("button", { name: "Claim Your Free Page!" });

  test("rejects short and malformed names", async ({ page }) => {
    await page.goto("/");
    await box(page).fill("ab");
    await expect(page.getByText("Username must be at least 3 characters")).toBeVisible();
    await box(page).fill("bad name!");
    await expect(page.getByText("Username can only contain letters, numbers, hyphens, and underscores")).toBeVisible();
    await box(page).fill("a".repeat(31));
    await expect(page.getByText("Username must be less than 30 characters")).toBeVisible();
    await expect(claim(page)).toBeDisabled();
  });

  // Depends on GET /api/auth/username-availability (accounts issue).
  test("rejects a taken and a reserved name", async ({ page }) => {
    await page.goto("/");
    await box(page).fill("demo");
    await expect(page.getByText("Username is already taken")).toBeVisible();
    await expect(claim(page)).toBeDisabled();
    await box(page).fill("dashboard");
    await expect(page.locator("#claim-hero-status")).toContainText("✗");
    await expect(claim(page)).toBeDisabled();
  });

  // Depends on GET /api/auth/username-availability (accounts issue).
  test("carries a free name to signup", async ({ page }) => {
    const name = `free_${Date.now().toString(36)}`;
    await page.goto("/");
    await box(page).fill(`  ${name} `);
    await expect(page.getByText(`@${name} is available`)).toBeVisible();
    await claim(page).click();
    await expect(page).toHaveURL(`/auth/signup?username=${name}`);
  });
});

test("the carousel advances by itself and by keyboard", async ({ page }) => {
  await page.goto("/");
  const carousel = page.locator("#plus-carousel");
  await expect(carousel.getByRole("heading", { name: "Design that's yours" })).toBeVisible();
  await expect(carousel.getByRole("heading", { name: "Every link type" })).toBeVisible({ timeout: 10_000 });
  await carousel.getByRole("button", { name: "Go to slide 3" }).focus();
  await page.keyboard.press("Enter");
  await expect(carousel.getByRole("heading", { name: "Analytics and affiliate" })).toBeVisible();
  await carousel.getByRole("button", { name: "Next slide" }).focus();
  await page.keyboard.press("Enter");
  await expect(carousel.getByRole("heading", { name: "Design that's yours" })).toBeVisible();
});

test("signed-out navigation shows Login and Sign Up", async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 800 });
  await page.goto("/features");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Login" }).last()).toBeVisible();
  await expect(nav.getByRole("link", { name: "Sign Up" }).last()).toBeVisible();
  await expect(nav.getByRole("link", { name: "Dashboard" })).toHaveCount(0);
});

test("signed-in navigation shows Dashboard", async ({ page, context, owner }) => {
  expect(owner.username).toBeTruthy();
  await context.addCookies([{ name: "plinth_signed_in", value: "1", url: E2E.origin }]);
  await page.setViewportSize({ width: 1024, height: 800 });
  await page.goto("/features");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Dashboard" }).last()).toBeVisible();
  await expect(nav.getByRole("link", { name: "Login" })).toHaveCount(0);
});

test("the mobile menu works at 320px by keyboard", async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto("/");
  await page.getByText("Menu").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Pricing" })).toBeVisible();
});

test("unknown paths give the 404 screen with working buttons", async ({ page }) => {
  await page.goto("/pricing");
  const res = await page.goto("/no-such/page-here");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
  await page.getByRole("button", { name: "Go Back" }).click();
  await expect(page).toHaveURL(/\/pricing\/?$/);
  await page.goto("/no-such/page-here");
  await page.getByRole("link", { name: "Go Home" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("the contact form stores and e-mails a message and refuses bad input", async ({ page }) => {
  const marker = `hello-${Date.now().toString(36)}`;
  await page.goto("/contact");
  const main = page.getByRole("main");
  await main.getByLabel("Email").fill("not-an-email");
  await main.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Name is required")).toBeVisible();
  await expect(page.getByText("Please enter a valid email address")).toBeVisible();
  await main.getByLabel("Name").fill("Visitor");
  await main.getByLabel("Email").fill("visitor@example.com");
  await main.getByLabel("Message").fill(marker);
  await main.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Thank you! Your message has been sent.")).toBeVisible();
  const rows = e2eDb().select().from(contactMessages).where(eq(contactMessages.message, marker)).all();
  expect(rows).toHaveLength(1);
  const mails = existsSync(E2E.outboxDir) ? readdirSync(E2E.outboxDir).map((f) => readFileSync(join(E2E.outboxDir, f), "utf8")) : [];
  expect(mails.some((m) => m.includes(marker))).toBe(true);
});
