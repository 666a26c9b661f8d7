/**
 * The live preview beside the editor screens: the renderer's own HTML and CSS for the current draft
 * (the same markup as the published page), following what the owner types before it is saved, the
 * Preview toggle on small screens, and the note when a Lite owner's draft holds Plus-only choices.
 */
import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { userProfiles } from "#db/schema.ts";
import { createOwner, e2eDb, editProfile, expect, signInAs, test } from "./fixtures.ts";

async function api(page: Page, method: string, path: string, body?: unknown): Promise<number> {
  return page.evaluate(
    async ({ method, path, body }) =>
      (await fetch(path, { method, headers: { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) })).status,
    { method, path, body },
  );
}

const frameOf = (page: Page) => page.getByTestId("live-preview").contentFrame();

/** Markup with every element's attributes in name order: the preview is drawn by React in the
 * browser, which sets some attributes (an image's src, an input's type) after the others. */
function sortedAttributes(html: string): string {
  const body = new DOMParser().parseFromString(html, "text/html").body;
  for (const el of body.querySelectorAll("*")) {
    const attrs = [...el.attributes].map((a) => [a.name, a.value] as const).sort(([a], [b]) => (a < b ? -1 : 1));
    for (const [name] of attrs) el.removeAttribute(name);
    for (const [name, value] of attrs) el.setAttribute(name, value);
  }
  return body.innerHTML;
}

test("the live preview is the published page's HTML and CSS for the same draft", async ({ page, owner }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto("/dashboard/appearance");
  await expect(page.getByRole("heading", { name: "Theme", level: 1 })).toBeVisible();
  for (const [path, body] of [
    ["/api/profile/text", { displayName: "Ada & Co <3", bio: "Engines, poems \"and\" notes.", seoDescription: "Search text", longFormText: "About us.\nSecond line.\n\n## Hello\n\n- *one*\n- [two](https://two.example/)" }],
    ["/api/profile/appearance", { selectedThemeName: "gradient-sunset", buttonShapeStyle: "pill", socialLinksPosition: "bottom", customFontPairingName: "tech-mono", customButtonBorderColor: "#facc15" }],
    ["/api/profile/picture-settings", { profilePictureStyle: "initials", initialsText: "AC", initialsBgColor: "#0f766e" }],
  ] as const) {
    expect((await editProfile(page, path, body)).status, path).toBe(200);
  }
  for (const [method, path, body] of [
    ["POST", "/api/links", { linkType: "standard_url", title: "Shop", url: "https://shop.example/?a=1&b=2" }],
    ["POST", "/api/links", { linkType: "label", title: "Writing" }],
    ["POST", "/api/links", { linkType: "text_link", title: "Blog", url: "https://blog.example", data: { text: "Read the blog", url: "https://blog.example" } }],
    ["POST", "/api/social-links", { platform: "github", handle: "ada" }],
  ] as const) {
    expect(await api(page, method, path, body), path).toBeLessThan(300);
  }
  expect(await api(page, "POST", "/api/publish")).toBe(200);
  await page.reload();

  const frame = frameOf(page);
  await expect(frame.getByRole("heading", { level: 1, name: "Ada & Co <3" })).toBeVisible();
  // Long-form text is Markdown, drawn by the same parser once it has loaded (ADR 126).
  await expect(frame.getByRole("heading", { level: 2, name: "Hello" })).toBeVisible();
  // The brand marks load one platform at a time, for the platforms the page has (ADR 132).
  await expect(frame.locator('[data-social="github"] path')).toHaveAttribute("d", /^M/);
  const preview = {
    body: await frame.locator("body").evaluate((b) => b.innerHTML),
    css: await frame.locator("style").first().evaluate((s) => s.textContent),
  };
  const published = await page.evaluate(async (username) => {
    const html = await (await fetch(`/${username}`)).text();
    const doc = new DOMParser().parseFromString(html, "text/html");
    return { body: doc.body.innerHTML, css: doc.querySelector("style")!.textContent };
  }, owner.username);
  expect(published.body).toContain("Read the blog");
  expect(published.body).toContain('<h2>Hello</h2><ul><li><em>one</em></li><li><a href="https://two.example/" rel="noopener">two</a></li></ul>');
  expect(await page.evaluate(sortedAttributes, preview.body)).toBe(await page.evaluate(sortedAttributes, published.body));
  expect(preview.css).toBe(published.css);
});

test("the preview follows what the owner types before it is saved", async ({ page, owner }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto("/dashboard/bio");
  const frame = frameOf(page);
  await expect(frame.getByRole("heading", { level: 1, name: owner.username })).toBeVisible();
  await page.getByLabel("Display name").fill("Typed, not saved");
  await page.getByLabel("Bio", { exact: true }).fill("A bio in progress");
  await expect(frame.getByRole("heading", { level: 1, name: "Typed, not saved" })).toBeVisible();
  await expect(frame.getByText("A bio in progress")).toBeVisible();
  // Leaving without saving (the owner is asked first, ADR 114) drops the unsaved text from the preview.
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Theme" }).click();
  await page.getByRole("alertdialog", { name: "You have unsaved changes" }).getByRole("button", { name: "Leave" }).click();
  await expect(page.getByRole("heading", { name: "Theme", level: 1 })).toBeVisible();
  await expect(frame.getByRole("heading", { level: 1, name: owner.username })).toBeVisible();

  // A valid hex colour shows while it is typed; leaving an invalid one takes the preview back.
  const bg = page.getByRole("textbox", { name: "Page background", exact: true });
  await bg.fill("#102030");
  await expect.poll(() => frame.locator("body").evaluate((b) => getComputedStyle(b).backgroundColor)).toBe("rgb(16, 32, 48)");
  await bg.fill("#10203");
  await bg.blur();
  await expect(page.getByText("Please enter a valid hex colour, like #3b82f6")).toBeVisible();
  await expect.poll(() => frame.locator("body").evaluate((b) => getComputedStyle(b).backgroundColor)).toBe("rgb(255, 255, 255)");
});

test("on a small screen the preview sits behind a Preview toggle", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.setViewportSize({ width: 375, height: 800 });
  // The preview's renderer loads when the preview is first shown (ADR 132).
  const renderer: string[] = [];
  page.on("request", (r) => /\/_astro\/LivePreview\.[^/]+\.js$/.test(r.url()) && renderer.push(r.url()));
  await page.goto("/dashboard/profile-picture");
  await expect(page.getByRole("heading", { name: "Profile Picture", level: 1 })).toBeVisible();
  const toggle = page.getByRole("button", { name: "Preview", exact: true });
  await expect(page.getByTestId("live-preview")).toBeHidden();
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  await page.waitForLoadState("networkidle");
  expect(renderer).toEqual([]);
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("live-preview")).toBeVisible();
  await expect(frameOf(page).getByRole("heading", { level: 1 })).toBeVisible();
  expect(renderer).toHaveLength(1);
  // Nothing spills sideways at 375 px.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await toggle.click();
  await expect(page.getByTestId("live-preview")).toBeHidden();
});

test("a Lite owner's stored Plus choices show in the preview with a note that publishing needs Plus", async ({ page, context }) => {
  const owner = await createOwner();
  await signInAs(context, owner);
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto("/dashboard/appearance");
  await expect(page.getByRole("heading", { name: "Theme", level: 1 })).toBeVisible();
  // Chosen during the trial…
  expect((await editProfile(page, "/api/profile/appearance", { removeBranding: true, customFontPairingName: "elegant-serif" })).status).toBe(200);
  const frame = frameOf(page);
  // …then the trial ends.
  e2eDb().update(userProfiles).set({ trialEndsAt: new Date() }).where(eq(userProfiles.userId, owner.userId)).run();
  await page.reload();
  const note = page.getByRole("complementary", { name: "Live preview" }).getByRole("note");
  await expect(note).toContainText("Publishing needs Plinth Plus");
  await expect(note).toContainText("remove plinth branding");
  await expect(note).toContainText("custom fonts");
  await expect(frame.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(frame.getByText("Powered by")).toHaveCount(0);
  expect(await frame.locator("h1").evaluate((h) => getComputedStyle(h).fontFamily)).toContain("Playfair Display");
  await expect(note.getByRole("button", { name: "Stop previewing" })).toHaveCount(0);
  // Publishing is refused until they are removed.
  expect(await api(page, "POST", "/api/publish")).toBe(402);
  await page.getByRole("checkbox", { name: /Remove Plinth branding/ }).uncheck();
  await page.getByRole("group", { name: "Font pairing" }).getByRole("radio", { name: /^Theme default/ }).check();
  await expect(note).toHaveCount(0);
  await expect(frame.getByText("Powered by")).toBeVisible();
  expect(await api(page, "POST", "/api/publish")).toBe(200);
});
