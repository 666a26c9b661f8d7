/**
 * Bio & SEO as an owner uses it: the live character counter and docs/product.md's limits, the search-result
 * preview, what reaches the published page (title and meta description), and the Plus gate.
 */
import type { Page } from "@playwright/test";
import { createOwner, expect, signInAs, test } from "./fixtures.ts";

const toast = (page: Page) => page.locator("[data-sonner-toast][data-front='true']");

async function publish(page: Page) {
  expect(await page.evaluate(async () => (await fetch("/api/publish", { method: "POST" })).status)).toBe(200);
}

test("display name and bio: live counter, docs/product.md's limits, saved as a draft, then published", async ({ page, owner }) => {
  await page.goto("/dashboard/bio");
  await expect(page.getByRole("heading", { name: "Bio & SEO", level: 1 })).toBeVisible();
  const name = page.getByLabel("Display name");
  const bio = page.getByLabel("Bio", { exact: true });
  const save = page.getByRole("button", { name: "Save Changes" });
  await expect(save).toBeDisabled();

  await bio.fill("Hello");
  await expect(page.getByTestId("bio-count")).toHaveText("5/500");
  await bio.fill("x".repeat(500));
  await expect(page.getByTestId("bio-count")).toHaveText("500/500");
  await expect(page.getByText("Bio must be 500 characters or less")).toHaveCount(0);
  await bio.pressSequentially("y");
  await expect(page.getByTestId("bio-count")).toHaveText("501/500");
  await expect(page.getByText("Bio must be 500 characters or less")).toBeVisible();
  await expect(bio).toHaveAttribute("aria-invalid", "true");
  await expect(save).toBeDisabled();

  await name.fill("N".repeat(51));
  await expect(page.getByTestId("displayName-count")).toHaveText("51/50");
  await expect(page.getByText("Display name must be 50 characters or less")).toBeVisible();

  await name.fill("Ada Lovelace");
  await bio.fill("Mathematician & writer. <b>Not bold</b>");
  await expect(page.getByText("You have unsaved changes")).toBeVisible();
  await save.click();
  await expect(toast(page)).toContainText("Saved to your draft");
  await expect(page.getByText("Draft Changes")).toBeVisible();
  await expect(save).toBeDisabled();

  // Kept after a reload; on the public page only after publishing.
  await page.reload();
  await expect(page.getByLabel("Display name")).toHaveValue("Ada Lovelace");
  const visitor = await page.context().newPage();
  await visitor.goto(`/${owner.username}`);
  await expect(visitor.getByRole("heading", { level: 1 })).not.toHaveText("Ada Lovelace");
  await publish(page);
  await visitor.reload();
  await expect(visitor.getByRole("heading", { level: 1, name: "Ada Lovelace" })).toBeVisible();
  await expect(visitor.getByText("Mathematician & writer. <b>Not bold</b>")).toBeVisible();
});

test("SEO title and meta description: live search-result preview, limits, and the published page's head", async ({ page, owner }) => {
  await page.goto("/dashboard/bio");
  const preview = page.getByTestId("search-preview");
  await expect(preview).toContainText(`/${owner.username}`);
  // Without SEO settings the result falls back to the name and bio.
  await page.getByLabel("Display name").fill("Grace Hopper");
  await page.getByLabel("Bio", { exact: true }).fill("Compilers, COBOL and nanoseconds.");
  await expect(page.getByTestId("search-preview-title")).toHaveText("Grace Hopper");
  await expect(page.getByTestId("search-preview-description")).toHaveText("Compilers, COBOL and nanoseconds.");

  await page.getByLabel("SEO title").fill("Grace Hopper | Talks and writing");
  await expect(page.getByTestId("search-preview-title")).toHaveText("Grace Hopper | Talks and writing");
  const description = page.getByLabel("Meta description");
  await description.fill("d".repeat(161));
  await expect(page.getByTestId("seoDescription-count")).toHaveText("161/160");
  await expect(page.getByText("Meta description must be 160 characters or less")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save Changes" })).toBeDisabled();
  await description.fill("Talks, papers and the first compiler: everything Grace Hopper in one place.");
  await expect(page.getByTestId("search-preview-description")).toHaveText("Talks, papers and the first compiler: everything Grace Hopper in one place.");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(toast(page)).toContainText("Saved to your draft");

  await publish(page);
  const visitor = await page.context().newPage();
  await visitor.goto(`/${owner.username}`);
  await expect(visitor).toHaveTitle("Grace Hopper | Talks and writing");
  await expect(visitor.locator('meta[name="description"]')).toHaveAttribute("content", "Talks, papers and the first compiler: everything Grace Hopper in one place.");
});

test("long-form text is Markdown: the syntax is shown by the field, and the preview and the page draw it", async ({ page, owner }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto("/dashboard/bio");
  const about = page.getByLabel("About section");
  await expect(about).toBeEnabled();
  // The field says which syntax works.
  const help = page.getByRole("list", { name: "Formatting you can use" });
  await expect(help).toContainText("## Heading");
  await expect(help).toContainText("[text](https://example.com)");
  await expect(about).toHaveAccessibleDescription(/Formatting you can use/);

  await about.fill("## Hello\n\nSome **bold** words, a [safe link](https://example.com/) and a [bad one](javascript:alert(1)).\n\n- first\n- second\n\n<b>not bold</b>");
  const frame = page.getByTestId("live-preview").contentFrame();
  await expect(frame.getByRole("heading", { level: 2, name: "Hello" })).toBeVisible();
  await expect(frame.getByRole("listitem").filter({ hasText: "second" })).toBeVisible();
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(toast(page)).toContainText("Saved to your draft");
  await publish(page);

  const visitor = await page.context().newPage();
  await visitor.goto(`/${owner.username}`);
  const section = visitor.getByRole("region", { name: "About" });
  await expect(section.getByRole("heading", { level: 2, name: "Hello" })).toBeVisible();
  await expect(section).not.toContainText("## Hello");
  await expect(section.getByText("bold", { exact: true })).toHaveCSS("font-weight", "700");
  await expect(section.getByRole("link", { name: "safe link" })).toHaveAttribute("href", "https://example.com/");
  await expect(section.getByRole("link", { name: "bad one" })).toHaveCount(0);
  await expect(section.getByText("bad one", { exact: false })).toBeVisible();
  await expect(section.getByRole("listitem")).toHaveText(["first", "second"]);
  await expect(section.getByText("<b>not bold</b>")).toBeVisible();
});

test("a Lite owner meets the Plus gate for SEO settings and long-form text", async ({ page, context }) => {
  const lite = await createOwner({ trial: false });
  await signInAs(context, lite);
  await page.goto("/dashboard/bio");
  await expect(page.getByText("SEO settings are a Plinth Plus feature")).toBeVisible();
  await expect(page.getByLabel("SEO title")).toBeDisabled();
  await expect(page.getByLabel("Meta description")).toBeDisabled();
  await expect(page.getByLabel("About section")).toBeDisabled();
  // The search result shows what a Lite page gets: the name and bio.
  await page.getByLabel("Bio", { exact: true }).fill("Just the bio");
  await expect(page.getByTestId("search-preview-description")).toHaveText("Just the bio");
  await expect(page.getByTestId("search-preview-title")).toHaveText(lite.username);

  await page.getByText("SEO settings are a Plinth Plus feature").locator("..").getByRole("button", { name: "Upgrade to Plus" }).click();
  const prompt = page.getByRole("dialog", { name: "Upgrade to Plinth Plus" });
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText("SEO settings");
  await prompt.getByRole("button", { name: "Not Now" }).click();

  // The PLUS badge carries docs/product.md's tooltip and opens the same prompt.
  const badge = page.getByRole("button", { name: /^PLUS: This feature requires Plinth Plus\. Click to upgrade!/ }).first();
  await badge.click();
  await expect(prompt).toBeVisible();
  await prompt.getByRole("button", { name: "Not Now" }).click();

  // Bio is for everyone.
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(toast(page)).toContainText("Saved to your draft");
});
