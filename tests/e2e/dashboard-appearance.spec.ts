/**
 * Theme as an owner uses it: every theme and colour reaching the published page, button style, social
 * position, font pairing and branding; the hex input's validation; a Lite owner's PLUS marks and the
 * preview of a Plus theme that is never saved.
 */
import type { Page } from "@playwright/test";
import { THEMES } from "#core/themes.ts";
import { createOwner, editProfile, expect, signInAs, test } from "./fixtures.ts";

const rgb = (hex: string) => {
  const n = parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
};

async function api(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const r = await fetch(path, { method, headers: { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: r.status, body: await r.json() };
    },
    { method, path, body },
  );
}

async function publish(page: Page) {
  expect((await api(page, "POST", "/api/publish")).status).toBe(200);
}

const appearanceSaved = (page: Page) => page.waitForResponse((r) => r.url().endsWith("/api/profile/appearance") && r.request().method() === "PATCH" && r.ok());

test("every theme reaches the published page", async ({ page, owner }) => {
  test.setTimeout(120_000);
  await page.goto("/dashboard/appearance");
  await expect(page.getByRole("heading", { name: "Theme", level: 1 })).toBeVisible();
  expect((await api(page, "POST", "/api/links", { linkType: "standard_url", title: "My shop", url: "https://shop.example" })).status).toBe(201);
  const visitor = await page.context().newPage();

  for (const theme of [...THEMES.slice(1), THEMES[0]]) {
    const saved = appearanceSaved(page);
    await page.getByTestId(`theme-${theme.id}`).click();
    await saved;
    await expect(page.getByRole("radio", { name: new RegExp(theme.name) })).toBeChecked();
    await publish(page);
    await visitor.goto(`/${owner.username}`);
    const look = await visitor.evaluate(() => {
      const body = getComputedStyle(document.body);
      const button = getComputedStyle(document.querySelector("main a[href='https://shop.example']")!);
      return { bg: body.backgroundColor, image: body.backgroundImage, button: button.backgroundColor, border: button.borderTopColor };
    });
    if (theme.background.startsWith("linear-gradient")) expect(look.image, theme.id).toContain("linear-gradient");
    else expect(look.bg, theme.id).toBe(rgb(theme.background));
    expect(look.button, theme.id).toBe(rgb(theme.buttonBackground));
    expect(look.border, theme.id).toBe(rgb(theme.buttonBorder));
  }
});

test("colours, button style, social position, fonts and branding reach the published page", async ({ page, owner }) => {
  await page.goto("/dashboard/appearance");
  await expect(page.getByRole("heading", { name: "Theme", level: 1 })).toBeVisible();
  expect((await api(page, "POST", "/api/links", { linkType: "standard_url", title: "My shop", url: "https://shop.example" })).status).toBe(201);
  expect((await api(page, "POST", "/api/social-links", { platform: "github", handle: "ada" })).status).toBe(201);
  await page.reload();

  // The hex input is validated: nothing is saved until it is a colour.
  const pageBg = page.getByRole("textbox", { name: "Page background", exact: true });
  let patches = 0;
  page.on("request", (r) => {
    if (r.url().endsWith("/api/profile/appearance")) patches++;
  });
  for (const bad of ["blue", "#fff", "#12345z"]) {
    await pageBg.fill(bad);
    await pageBg.press("Enter");
    await expect(page.getByText("Please enter a valid hex colour, like #3b82f6")).toBeVisible();
  }
  expect(patches).toBe(0);
  let saved = appearanceSaved(page);
  await pageBg.fill("#FAF5E4");
  await pageBg.press("Enter");
  await saved;
  await expect(page.getByText("Please enter a valid hex colour, like #3b82f6")).toHaveCount(0);

  saved = appearanceSaved(page);
  const buttonBg = page.getByRole("textbox", { name: "Button background", exact: true });
  await buttonBg.fill("#14532d");
  await buttonBg.blur();
  await saved;

  // The colour picker saves when a colour is chosen.
  saved = appearanceSaved(page);
  await page.getByLabel("Button border picker").fill("#b45309");
  await saved;
  await expect(page.getByRole("textbox", { name: "Button border", exact: true })).toHaveValue("#b45309");

  for (const [group, option] of [
    ["Button style", "Pill"],
    ["Social links position", "Floating"],
    ["Font pairing", "Elegant Serif"],
  ] as const) {
    saved = appearanceSaved(page);
    await page.getByRole("group", { name: group }).getByRole("radio", { name: new RegExp(`^${option}`) }).check();
    await saved;
  }
  await expect(page.getByTestId("appearance-status")).toHaveText("Saved to your draft");
  await publish(page);

  const visitor = await page.context().newPage();
  await visitor.goto(`/${owner.username}`);
  await expect(visitor.getByText("Powered by")).toBeVisible();
  const look = await visitor.evaluate(() => {
    const button = getComputedStyle(document.querySelector("main a[href='https://shop.example']")!);
    // The social icons float when they, or a box around them, are fixed to the viewport.
    const fixed = (el: Element | null): boolean => !!el && (getComputedStyle(el).position === "fixed" || fixed(el.parentElement));
    return {
      bg: getComputedStyle(document.body).backgroundColor,
      button: button.backgroundColor,
      border: button.borderTopColor,
      radius: button.borderTopLeftRadius,
      floating: fixed(document.querySelector("a[href^='https://github.com/ada']")),
      heading: getComputedStyle(document.querySelector("h1")!).fontFamily,
      body: getComputedStyle(document.body).fontFamily,
    };
  });
  expect(look.bg).toBe("rgb(250, 245, 228)");
  expect(look.button).toBe("rgb(20, 83, 45)");
  expect(look.border).toBe("rgb(180, 83, 9)");
  expect(parseFloat(look.radius)).toBeGreaterThan(100);
  expect(look.floating).toBe(true);
  expect(look.heading).toContain("Playfair Display");
  expect(look.body).toContain("Lora");

  // Box buttons, the theme's own colour back, and no branding.
  saved = appearanceSaved(page);
  await page.getByRole("group", { name: "Button style" }).getByRole("radio", { name: /^Box/ }).check();
  await saved;
  saved = appearanceSaved(page);
  await page.getByRole("button", { name: "Use theme colour" }).first().click();
  await saved;
  saved = appearanceSaved(page);
  await page.getByRole("checkbox", { name: /Remove Plinth branding/ }).check();
  await saved;
  await publish(page);
  await visitor.reload();
  await expect(visitor.getByText("Powered by")).toHaveCount(0);
  const after = await visitor.evaluate(() => ({
    bg: getComputedStyle(document.body).backgroundColor,
    radius: getComputedStyle(document.querySelector("main a[href='https://shop.example']")!).borderTopLeftRadius,
  }));
  expect(after.bg).toBe(rgb(THEMES[0].background));
  expect(parseFloat(after.radius)).toBe(0);
});

test("a Lite owner sees 8 themes marked PLUS; a Plus theme shows in the preview with a note and is not saved", async ({ page, context }) => {
  const lite = await createOwner({ trial: false });
  await signInAs(context, lite);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/dashboard/appearance");
  await expect(page.getByRole("heading", { name: "Theme", level: 1 })).toBeVisible();
  const gallery = page.getByRole("group", { name: "Theme", exact: true });
  await expect(gallery.getByRole("radio")).toHaveCount(12);
  await expect(gallery.getByRole("button", { name: /^PLUS/ })).toHaveCount(8);
  for (const t of THEMES.filter((x) => x.free)) await expect(page.getByTestId(`theme-${t.id}`).getByRole("button", { name: /^PLUS/ })).toHaveCount(0);

  let patches = 0;
  page.on("request", (r) => {
    if (r.url().endsWith("/api/profile/appearance")) patches++;
  });
  await page.getByTestId("theme-neon-dark").click();
  const preview = page.getByRole("complementary", { name: "Live preview" });
  const note = preview.getByRole("note");
  await expect(note).toContainText("Publishing needs Plinth Plus");
  await expect(note).toContainText("premium themes");
  await expect(page.getByTestId("appearance-status")).toContainText("Plinth Plus");
  const frame = page.getByTestId("live-preview").contentFrame();
  await expect(frame.locator("h1")).toBeVisible();
  await expect.poll(() => frame.locator("body").evaluate((b) => getComputedStyle(b).backgroundColor)).toBe(rgb("#0a0a0a"));
  expect(patches).toBe(0);
  expect((await api(page, "GET", "/api/profile")).body.snapshot.profile.selectedThemeName).toBe("minimalist-light");

  // The note's upgrade button opens the prompt for the feature; Stop previewing drops the try-on.
  await note.getByRole("button", { name: "Upgrade to Plus" }).click();
  await expect(page.getByRole("dialog", { name: "Upgrade to Plinth Plus" })).toContainText(/premium themes/i);
  await page.getByRole("dialog").getByRole("button", { name: "Not Now" }).click();
  await note.getByRole("button", { name: "Stop previewing" }).click();
  await expect(preview.getByRole("note")).toHaveCount(0);
  await expect.poll(() => frame.locator("body").evaluate((b) => getComputedStyle(b).backgroundColor)).toBe(rgb("#ffffff"));

  // Free themes save as usual; a hand-made request for a Plus theme is refused.
  const saved = appearanceSaved(page);
  await page.getByTestId("theme-pastel-soft").click();
  await saved;
  expect((await editProfile(page, "/api/profile/appearance", { selectedThemeName: "rose-gold" })).status).toBe(402);
  expect((await api(page, "GET", "/api/profile")).body.snapshot.profile.selectedThemeName).toBe("pastel-soft");
});
