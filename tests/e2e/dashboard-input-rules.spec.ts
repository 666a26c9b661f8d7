/**
 * The URL and text rules as an owner meets them in the link dialog (ADR 095, ADR 096): a URL the
 * public page would not link to is refused where it is typed, invisible characters in a title too,
 * and a link saved under an older rule is marked on Page Layout.
 */
import { eq } from "drizzle-orm";
import type { Page } from "@playwright/test";
import { newId } from "#db/ids.ts";
import { links } from "#db/schema.ts";
import { e2eDb, expect, test } from "./fixtures.ts";

const dialog = (page: Page) => page.getByRole("dialog", { name: /Add New Link|Edit Link/ });
const urlBox = (page: Page) => dialog(page).getByRole("textbox", { name: "URL", exact: true });

async function openAdd(page: Page) {
  await page.getByRole("button", { name: /Add Component|Add Your First Link/ }).first().click();
  await expect(page.getByRole("dialog", { name: "Add New Link" })).toBeVisible();
}

test("refuses a URL the page would not link to, such as https:example.com, and saves the same URL written out", async ({ page, owner }) => {
  await page.goto("/dashboard/links");
  await expect(page.getByText("No links yet")).toBeVisible();
  await openAdd(page);
  await dialog(page).getByLabel("Title").fill("My shop");
  await urlBox(page).fill("https:example.com");
  await dialog(page).getByRole("button", { name: "Add Link" }).click();
  await expect(dialog(page).getByText("Please enter a valid URL")).toBeVisible();
  await expect(urlBox(page)).toHaveAttribute("aria-invalid", "true");
  await expect(urlBox(page)).toHaveAccessibleDescription("Please enter a valid URL");
  expect(e2eDb().select().from(links).where(eq(links.userId, owner.userId)).all()).toHaveLength(0);

  // A thumbnail address is held to the same rule before anything is sent.
  await dialog(page).getByText("More options").click();
  await dialog(page).getByLabel("Thumbnail image URL").fill("https:cdn.example/p.png");
  await urlBox(page).fill("https://example.com/shop");
  await dialog(page).getByRole("button", { name: "Add Link" }).click();
  await expect(dialog(page).getByLabel("Thumbnail image URL")).toHaveAccessibleDescription("Please enter a valid URL");
  await expect(urlBox(page)).not.toHaveAttribute("aria-invalid", "true");
  await dialog(page).getByLabel("Thumbnail image URL").fill("");

  // Invisible characters in a title: a right-to-left override would make it read differently.
  await dialog(page).getByLabel("Title").fill("My shop\u202Egnp.exe");
  await dialog(page).getByRole("button", { name: "Add Link" }).click();
  await expect(dialog(page).getByText("Please remove invisible characters")).toBeVisible();
  await dialog(page).getByLabel("Title").fill("My shop");
  await dialog(page).getByRole("button", { name: "Add Link" }).click();
  await expect(page.getByText("Link added successfully")).toBeVisible();
  const row = page.getByTestId("link-row").filter({ hasText: "My shop" });
  await expect(row).toContainText("https://example.com/shop");
  await expect(row).not.toContainText("Invalid URL");
});

test("marks a link saved under an older rule, which the page leaves off, until its URL is fixed", async ({ page, owner }) => {
  e2eDb()
    .insert(links)
    .values({ id: newId(), userId: owner.userId, title: "Old shop", url: "https:example.com", linkType: "standard_url", orderIndex: 0 })
    .run();
  await page.goto("/dashboard/links");
  const row = page.getByTestId("link-row").filter({ hasText: "Old shop" });
  await expect(row.getByText("Invalid URL: edit it to show this link")).toBeVisible();

  await row.getByRole("button", { name: "Actions for Old shop" }).click();
  await page.getByRole("menuitem", { name: "Edit" }).click();
  await expect(urlBox(page)).toHaveValue("https:example.com");
  await dialog(page).getByRole("button", { name: "Save Changes" }).click();
  await expect(dialog(page).getByText("Please enter a valid URL")).toBeVisible();
  await urlBox(page).fill("https://example.com");
  await dialog(page).getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Link updated successfully")).toBeVisible();
  await expect(row.getByText("Invalid URL: edit it to show this link")).toHaveCount(0);
  await expect(row).toContainText("https://example.com");
});
