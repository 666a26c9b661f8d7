/**
 * The Content-Security-Policy holds in a real browser (ADR 055): the pages a visitor and an owner
 * walk through load, hydrate and work with no script, style, image or frame refused, and every page
 * arrives with a policy that forbids framing.
 */
import type { Page } from "@playwright/test";
import { publishPage } from "#renderer/publish.ts";
import { E2E } from "./env.ts";
import { e2eDb, expect, test } from "./fixtures.ts";

/**
 * Everything that went wrong: every refusal of the policy, with any console error, script error or
 * failed request besides. Chromium logs most refusals to the console itself, but not a refused
 * eval that the page catches (zod tries one to learn whether it may compile): the
 * securitypolicyviolation event reports each.
 */
async function watch(page: Page): Promise<string[]> {
  const problems: string[] = [];
  // Runs before the page's own scripts, in every document, outside the page's policy.
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => console.error(`CSP violation: ${e.effectiveDirective} refused ${e.blockedURI || "inline"} in ${e.sourceFile || e.documentURI}`));
  });
  page.on("console", (m) => {
    // The live preview's frame is sandboxed without scripts (ADR 064), and Chromium says so each
    // time the preview is redrawn, policy or not: that refusal is the sandbox's, by design.
    if (m.type() === "error" && !m.text().startsWith("Blocked script execution in 'about:srcdoc' because the document's frame is sandboxed")) problems.push(m.text());
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("response", (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
  return problems;
}

/** Opens `path` and checks the policy the page arrived with. */
async function open(page: Page, path: string, status = 200): Promise<void> {
  const res = await page.goto(path);
  expect(res?.status(), path).toBe(status);
  const headers = await res!.allHeaders();
  expect(headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
  expect(headers["x-frame-options"], path).toBe("DENY");
}

test("a visitor's pages: landing, pricing, help search, sign up, sign in, a published page and the 404 page", async ({ page }) => {
  const problems = await watch(page);
  for (const path of ["/", "/pricing", "/auth/signup"]) {
    await open(page, path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  }
  await open(page, "/help");
  await page.getByLabel("Search the FAQ").fill("password");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await open(page, "/auth/login");
  await expect(page.getByRole("heading", { level: 1, name: "Welcome Back" })).toBeVisible();
  await page.getByLabel("Email").fill("nobody@example.com");
  await open(page, "/demo");
  await expect(page.getByRole("heading", { level: 1, name: "Demo Creator" })).toBeVisible();
  await page.getByRole("button", { name: "Show QR code" }).click();
  const qr = page.getByRole("dialog", { name: "QR Code" }).getByRole("img");
  await expect.poll(() => qr.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBeGreaterThan(0);
  await page.keyboard.press("Escape");
  expect(problems).toEqual([]);
  await open(page, "/no-such-page/at-all", 404);
  await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
  await page.getByRole("button", { name: "Go Back" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Demo Creator" })).toBeVisible();
  // The page's own status, and nothing else.
  expect(problems).toEqual([`404 ${E2E.origin}/no-such-page/at-all`, "Failed to load resource: the server responded with a status of 404 (Not Found)"]);
});

test("an owner's dashboard: links, analytics, the live preview as the owner types, theme, account settings, the draft preview", async ({ page, owner }) => {
  // Published, so the preview's QR code has its file.
  expect(publishPage(e2eDb(), owner.userId, { publishedDir: E2E.publishedDir, origin: E2E.origin, now: new Date() }).ok).toBe(true);
  const problems = await watch(page);
  await page.setViewportSize({ width: 1400, height: 900 });
  await open(page, "/dashboard/links");
  await expect(page.getByRole("heading", { level: 1, name: "Page Layout" })).toBeVisible();
  await open(page, "/dashboard/analytics");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // The live preview: a frame whose stylesheet and body follow the owner's typing.
  await open(page, "/dashboard/bio");
  const frame = page.getByTestId("live-preview").contentFrame();
  await expect(frame.getByRole("heading", { level: 1, name: owner.username })).toBeVisible();
  await page.getByLabel("Display name").fill("Policy Tester");
  await expect(frame.getByRole("heading", { level: 1, name: "Policy Tester" })).toBeVisible();
  await open(page, "/dashboard/appearance");
  await expect(page.getByRole("heading", { name: "Theme", level: 1 })).toBeVisible();
  await page.getByRole("textbox", { name: "Page background", exact: true }).fill("#102030");
  await expect.poll(() => frame.locator("body").evaluate((b) => getComputedStyle(b).backgroundColor)).toBe("rgb(16, 32, 48)");
  await open(page, "/dashboard/account-settings");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await open(page, `/${owner.username}?preview=true`);
  await expect(page.getByText("Preview: this is your unpublished draft.")).toBeVisible();
  expect(problems).toEqual([]);
});
