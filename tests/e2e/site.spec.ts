/**
 * The public site as a first-time visitor meets it (issue 7): every route and its /en copy, the
 * landing page's claim box and carousel, navigation signed in and out, the 404 screen, the footer,
 * 320 px layouts, no third-party requests and the landing page's JavaScript budget.
 */
import { gzipSync } from "node:zlib";
import type { Page } from "@playwright/test";
import { LIMITS } from "#core/limits.ts";
import { SIGNED_IN_HINT_COOKIE } from "#core/signed-in-hint.ts";
import { FOOTER_LINKS, MAIN_NAV, MARKETING_PATHS, SITE_PAGES, pageIdOf } from "#editor/components/site/site-pages.ts";
import { E2E } from "./env.ts";
import { expect, test, uniqueUsername } from "./fixtures.ts";

/** Page time stands still until the test moves it, so nothing advances while the page loads. */
async function stopClock(page: Page) {
  await page.clock.install({ time: new Date("2026-01-01T00:00:00Z") });
  await page.clock.pauseAt(new Date("2026-01-01T00:00:01Z"));
}

const mainNav = (page: Page) => page.getByRole("navigation", { name: "Main" });

test.describe("every marketing route", () => {
  // One page walks every route (a fresh page per route costs more than the route itself); each
  // check names its route, and a failing route does not stop the others from being checked.
  test("each answers with its page, fits 320 px and asks no third party", async ({ page }) => {
    test.setTimeout(120_000);
    const foreign: string[] = [];
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (/^https?:$/.test(url.protocol) && url.origin !== E2E.origin) foreign.push(r.url());
    });
    await page.setViewportSize({ width: 320, height: 640 });
    for (const path of MARKETING_PATHS) {
      foreign.length = 0;
      const res = await page.goto(path);
      expect.soft(res?.status(), path).toBe(200);
      const meta = SITE_PAGES[pageIdOf(path)!];
      await expect.soft(page, path).toHaveTitle(meta.title);
      await expect.soft(page.locator('meta[name="description"]'), path).toHaveAttribute("content", meta.description);
      await expect.soft(page.getByRole("heading", { level: 1 }), path).toBeVisible();
      await expect.soft(mainNav(page).getByRole("link", { name: "Plinth" }), path).toBeVisible();
      await expect.soft(page.getByRole("contentinfo"), path).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect.soft(overflow, `horizontal scroll at 320 px on ${path}`).toBe(0);
      await page.waitForLoadState("networkidle");
      expect.soft(foreign, `third-party requests on ${path}`).toEqual([]);
    }
  });

  test("the landing page's title is the product's", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveTitle("Plinth: Your Links, Elevated | Link in Bio Platform");
  });

  test("pages carry Open Graph tags, a raster image, icons and a manifest that all load", async ({ page, request }) => {
    await page.goto("/pricing");
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", SITE_PAGES.pricing.title);
    await expect(page.locator('meta[property="og:description"]')).toHaveAttribute("content", SITE_PAGES.pricing.description);
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute("content", "summary_large_image");
    const image = await page.locator('meta[property="og:image"]').getAttribute("content");
    expect(image).toMatch(/\/og\.png$/);
    const og = await request.get(new URL(image!, E2E.origin).href);
    expect(og.status()).toBe(200);
    expect(og.headers()["content-type"]).toBe("image/png");
    const png = await og.body();
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
    for (const sel of ['link[rel="icon"][type="image/svg+xml"]', 'link[rel="icon"][type="image/png"]', 'link[rel="apple-touch-icon"]']) {
      const href = await page.locator(sel).getAttribute("href");
      expect((await request.get(href!)).status(), sel).toBe(200);
    }
    const manifest = await request.get((await page.locator('link[rel="manifest"]').getAttribute("href"))!);
    expect(manifest.headers()["content-type"]).toContain("application/manifest+json");
    const icons = ((await manifest.json()) as { icons: { src: string; sizes: string }[] }).icons;
    expect(icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(["192x192", "512x512"]));
    for (const icon of icons) expect((await request.get(icon.src)).status(), icon.src).toBe(200);
  });

  test("the 404 page is not indexed, the pages are", async ({ page }) => {
    await page.goto("/features");
    await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
    await page.goto("/not-a-page-at-all");
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
  });
});

test.describe("the landing page", () => {
  test("has the hero, the problem, the carousel, four steps and the final claim box", async ({ page }) => {
    await page.goto("/");
    const hero = page.getByRole("region", { name: "Your Links, Elevated" });
    await expect(hero.getByText(`localhost:${E2E.port}/`)).toBeVisible();
    await expect(hero.getByPlaceholder("yourname")).toBeVisible();
    await expect(hero.getByRole("button", { name: "Claim Your Free Page!" })).toBeDisabled();
    await expect(page.getByRole("heading", { name: "One link in your bio is never enough" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Experience the Plus" })).toBeVisible();
    const steps = page.getByRole("region", { name: "How It Works" }).getByRole("listitem");
    await expect(steps).toHaveCount(4);
    await expect(steps.nth(0)).toContainText("Claim your name");
    await expect(steps.nth(3)).toContainText("Publish and share");
    const final = page.getByRole("region", { name: "Ready to Elevate Your Links?" });
    await expect(final.getByText(`localhost:${E2E.port}/`)).toBeVisible();
    await expect(final.getByPlaceholder("yourname")).toBeVisible();
    await expect(final.getByRole("button", { name: "JOIN NOW FOR FREE" })).toBeDisabled();
  });

  test("ships at most 50 KB of JavaScript, gzip", async ({ page }) => {
    const scripts: Promise<Buffer>[] = [];
    page.on("response", (r) => {
      if (r.request().resourceType() === "script") scripts.push(r.body());
    });
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    const inline = await page.locator("script:not([src])").evaluateAll((els) => els.map((e) => e.textContent ?? ""));
    const bodies = [...(await Promise.all(scripts)), ...inline.map((s) => Buffer.from(s))];
    expect(scripts.length).toBeGreaterThan(0);
    const gzip = bodies.reduce((sum, b) => sum + gzipSync(b).length, 0);
    expect(gzip).toBeLessThanOrEqual(50 * 1024);
  });
});

test.describe("the claim box", () => {
  const box = (page: Page) => page.getByRole("textbox", { name: "Claim your username" });
  const claim = (page: Page) => page.getByRole("button", { name: "Claim Your Free Page!" });
  const status = (page: Page) => page.locator("#claim-hero-status");

  test("rejects short, long and malformed names with docs/product.md's messages", async ({ page }) => {
    await page.goto("/");
    await box(page).fill("ab");
    await expect(status(page)).toHaveText("Username must be at least 3 characters");
    await expect(box(page)).toHaveAttribute("aria-invalid", "true");
    await box(page).fill("a".repeat(LIMITS.USERNAME_MAX + 1));
    await expect(status(page)).toHaveText("Username must be less than 30 characters");
    await box(page).fill("bad name!");
    await expect(status(page)).toHaveText("Username can only contain letters, numbers, hyphens, and underscores");
    await box(page).fill("<script>x</script>");
    await expect(status(page)).toHaveText("Username can only contain letters, numbers, hyphens, and underscores");
    await expect(claim(page)).toBeDisabled();
  });

  test("rejects a taken and a reserved name", async ({ page }) => {
    await page.goto("/");
    await box(page).fill("demo");
    await expect(status(page)).toHaveText("Username is already taken");
    await expect(claim(page)).toBeDisabled();
    for (const reserved of ["dashboard", "Status", "pricing"]) {
      await box(page).fill(reserved);
      await expect(status(page)).toHaveText("Username is already taken");
      await expect(claim(page)).toBeDisabled();
    }
  });

  test("says so when the availability check fails", async ({ page }) => {
    await page.route("**/api/auth/username-availability*", (route) => route.abort());
    await page.goto("/");
    await box(page).fill(uniqueUsername("net"));
    await expect(status(page)).toHaveText("Error checking availability");
    await expect(claim(page)).toBeDisabled();
    await page.unroute("**/api/auth/username-availability*");
    await page.route("**/api/auth/username-availability*", (route) =>
      route.fulfill({ status: 429, json: { error: { code: "rate_limited", message: "Too many requests. Please try again later." } } }),
    );
    await box(page).fill(uniqueUsername("busy"));
    await expect(status(page)).toHaveText("Error checking availability");
    await expect(claim(page)).toBeDisabled();
  });

  test("carries a free, trimmed name to signup", async ({ page }) => {
    const name = uniqueUsername("free");
    await page.goto("/");
    await box(page).fill(`  ${name} `);
    await expect(status(page)).toHaveText(`@${name} is available`);
    await expect(claim(page)).toBeEnabled();
    await claim(page).click();
    await expect(page).toHaveURL(`/auth/signup?username=${name}`);
  });

  test("the final box works by keyboard alone", async ({ page }) => {
    const name = uniqueUsername("final");
    await page.goto("/");
    const final = page.getByRole("textbox", { name: "Choose your username" });
    await final.focus();
    await page.keyboard.type(name);
    await expect(page.locator("#claim-final-status")).toHaveText(`@${name} is available`);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(`/auth/signup?username=${name}`);
  });
});

test.describe("the 'Experience the Plus' carousel", () => {
  const interval = LIMITS.CAROUSEL_INTERVAL_MS;
  const titles = ["Design that's all yours", "Every kind of link", "Grow and earn"];
  const active = (page: Page) => page.locator("#plus-carousel .slide[data-active=true] h3");
  const carousel = (page: Page) => page.getByRole("region", { name: "Experience the Plus" });

  test("has three slides and advances by itself every interval, looping", async ({ page }) => {
    await stopClock(page);
    await page.goto("/");
    await expect(carousel(page).locator(".slide")).toHaveCount(3);
    await expect(active(page)).toHaveText(titles[0]!);
    await expect(carousel(page).getByRole("heading", { name: titles[1] })).toBeHidden();
    await page.clock.fastForward(interval - 100);
    await expect(active(page)).toHaveText(titles[0]!);
    await page.clock.fastForward(200);
    await expect(active(page)).toHaveText(titles[1]!);
    await expect(carousel(page).getByRole("heading", { name: titles[1] })).toBeVisible();
    await page.clock.fastForward(interval);
    await expect(active(page)).toHaveText(titles[2]!);
    await page.clock.fastForward(interval);
    await expect(active(page)).toHaveText(titles[0]!);
  });

  test("pauses while hovered and while focus is inside", async ({ page }) => {
    await stopClock(page);
    await page.goto("/");
    await carousel(page).locator(".slides").hover();
    await expect(carousel(page)).toHaveAttribute("data-state", "paused");
    await page.clock.fastForward(interval * 3);
    await expect(active(page)).toHaveText(titles[0]!);
    await page.mouse.move(0, 0);
    await expect(carousel(page)).toHaveAttribute("data-state", "playing");
    await page.clock.fastForward(interval);
    await expect(active(page)).toHaveText(titles[1]!);

    await carousel(page).getByRole("button", { name: "Next slide" }).focus();
    await expect(carousel(page)).toHaveAttribute("data-state", "paused");
    await page.clock.fastForward(interval * 3);
    await expect(active(page)).toHaveText(titles[1]!);
    await page.evaluate(() => (document.activeElement as HTMLElement).blur());
    await expect(carousel(page)).toHaveAttribute("data-state", "playing");
    await page.clock.fastForward(interval);
    await expect(active(page)).toHaveText(titles[2]!);
  });

  test("stays still for reduced motion until the visitor presses Play", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await stopClock(page);
    await page.goto("/");
    await expect(carousel(page)).toHaveAttribute("data-state", "stopped");
    await page.clock.fastForward(interval * 3);
    await expect(active(page)).toHaveText(titles[0]!);
    await carousel(page).getByRole("button", { name: "Play slide show" }).click();
    await page.mouse.move(0, 0);
    await page.evaluate(() => (document.activeElement as HTMLElement).blur());
    await expect(carousel(page)).toHaveAttribute("data-state", "playing");
    await page.clock.fastForward(interval);
    await expect(active(page)).toHaveText(titles[1]!);
  });

  test("the pause button stops it", async ({ page }) => {
    await stopClock(page);
    await page.goto("/");
    await carousel(page).getByRole("button", { name: "Pause slide show" }).focus();
    await page.keyboard.press("Enter");
    await expect(carousel(page).getByRole("button", { name: "Play slide show" })).toBeFocused();
    await page.evaluate(() => (document.activeElement as HTMLElement).blur());
    await expect(carousel(page)).toHaveAttribute("data-state", "stopped");
    await page.clock.fastForward(interval * 3);
    await expect(active(page)).toHaveText(titles[0]!);
  });

  test("dots and arrows work by keyboard, and loop both ways", async ({ page }) => {
    await page.goto("/");
    const region = carousel(page);
    await region.getByRole("button", { name: "Go to slide 3" }).focus();
    await page.keyboard.press("Enter");
    await expect(active(page)).toHaveText(titles[2]!);
    await expect(region.getByRole("heading", { name: titles[2] })).toBeVisible();
    await expect(region.getByRole("button", { name: "Go to slide 3" })).toHaveAttribute("aria-current", "true");
    await region.getByRole("button", { name: "Next slide" }).focus();
    await page.keyboard.press("Enter");
    await expect(active(page)).toHaveText(titles[0]!);
    await region.getByRole("button", { name: "Previous slide" }).focus();
    await page.keyboard.press("Space");
    await expect(active(page)).toHaveText(titles[2]!);
    await page.keyboard.press("ArrowRight");
    await expect(active(page)).toHaveText(titles[0]!);
    await page.keyboard.press("ArrowLeft");
    await expect(active(page)).toHaveText(titles[2]!);
    // Hidden slides are out of reach: their text is not read out while another slide shows.
    await expect(region.getByRole("heading", { name: titles[0] })).toBeHidden();
  });
});

test.describe("navigation", () => {
  test("signed out: Home, Features, Pricing, Help, Contact, Login and Sign Up", async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 800 });
    await page.goto("/features");
    const nav = mainNav(page);
    for (const { label } of MAIN_NAV) await expect(nav.getByRole("link", { name: label, exact: true })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Features", exact: true })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "Login" })).toHaveAttribute("href", "/auth/login");
    await expect(nav.getByRole("link", { name: "Sign Up" })).toHaveAttribute("href", "/auth/signup");
    await expect(nav.getByRole("link", { name: "Dashboard" })).toHaveCount(0);
    await nav.getByRole("link", { name: "Pricing", exact: true }).click();
    await expect(page).toHaveURL(/\/pricing$/);
  });

  test("signed in: Dashboard instead of Login and Sign Up, known before any script loads", async ({ page, owner }) => {
    expect(owner.username).toBeTruthy();
    // Only the head's inline script may decide: the page's script files are refused.
    await page.route("**/_astro/*.js", (route) => route.abort());
    await page.setViewportSize({ width: 1024, height: 800 });
    const res = await page.goto("/features");
    const setCookie = (await res!.allHeaders())["set-cookie"] ?? "";
    expect(setCookie).toContain(`${SIGNED_IN_HINT_COOKIE}=1`);
    const nav = mainNav(page);
    await expect(nav.getByRole("link", { name: "Dashboard" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Login" })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Sign Up" })).toHaveCount(0);
    await nav.getByRole("link", { name: "Dashboard" }).click();
    await expect(page).toHaveURL(/\/dashboard/);
  });

  test("signing out elsewhere shows Login again on the next page", async ({ page, context, owner }) => {
    expect(owner.username).toBeTruthy();
    await page.setViewportSize({ width: 1024, height: 800 });
    await page.goto("/help");
    await expect(mainNav(page).getByRole("link", { name: "Dashboard" })).toBeVisible();
    await context.clearCookies({ name: "plinth_session" });
    await page.goto("/pricing");
    await expect(mainNav(page).getByRole("link", { name: "Login" })).toBeVisible();
    await expect(mainNav(page).getByRole("link", { name: "Dashboard" })).toHaveCount(0);
  });

  test("the small-screen menu works by keyboard at 320 px", async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto("/");
    const menu = mainNav(page).getByText("Menu");
    await menu.focus();
    await page.keyboard.press("Enter");
    const pricing = mainNav(page).getByRole("link", { name: "Pricing", exact: true });
    await expect(pricing).toBeVisible();
    await expect(mainNav(page).getByRole("link", { name: "Sign Up" })).toBeVisible();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Escape");
    await expect(pricing).toBeHidden();
    await expect(menu).toBeFocused();
  });
});

test.describe("the footer", () => {
  test("links the pages docs/product.md lists, and each answers", async ({ page, request }) => {
    await page.goto("/");
    const links = page.getByRole("navigation", { name: "Footer" }).getByRole("link");
    await expect(links).toHaveCount(FOOTER_LINKS.length);
    for (const [i, l] of FOOTER_LINKS.entries()) {
      await expect(links.nth(i)).toHaveText(l.label);
      await expect(links.nth(i)).toHaveAttribute("href", l.href);
      expect((await request.get(l.href)).status(), l.href).toBe(200);
    }
    for (const href of ["/en/status", "/en/privacy", "/en/terms", "/en/cookies"]) expect(FOOTER_LINKS.map((l) => l.href)).toContain(href);
  });
});

test.describe("the 404 screen", () => {
  test("every dead address answers 404 with Page Not Found", async ({ page }) => {
    for (const path of ["/no-such/page-here", "/en/no-such-page", "/features/nope", "/admin", `/en/${"x".repeat(40)}`]) {
      const res = await page.goto(path);
      expect.soft(res?.status(), path).toBe(404);
      await expect.soft(page.getByRole("heading", { name: "Page Not Found" }), path).toBeVisible();
      await expect.soft(page.getByRole("button", { name: "Go Back" }), path).toBeVisible();
      await expect.soft(page.getByRole("link", { name: "Go Home" }), path).toBeVisible();
    }
  });

  test("Go Back returns to the previous page and Go Home goes home", async ({ page }) => {
    await page.goto("/pricing");
    await page.goto("/no-such/page-here");
    await page.getByRole("button", { name: "Go Back" }).click();
    await expect(page).toHaveURL(/\/pricing$/);
    await page.goto("/no-such/page-here");
    await page.getByRole("link", { name: "Go Home" }).click();
    await expect(page).toHaveURL(`${E2E.origin}/`);
  });

  test("Go Back in a tab opened straight on a dead link goes home", async ({ page, context }) => {
    await page.goto("/help");
    // A new tab with no history of its own, as a link with target=_blank opens it.
    const [tab] = await Promise.all([context.waitForEvent("page"), page.evaluate(() => void window.open("/gone-for-good", "_blank", "noopener"))]);
    await expect(tab.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
    await tab.getByRole("button", { name: "Go Back" }).click();
    await expect(tab).toHaveURL(`${E2E.origin}/`);
  });
});
