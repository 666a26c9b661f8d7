/**
 * The shortest walk through the product, also run on Node 24 by `npm run test:node24`: an owner
 * signs in with the form, adds a link in the dashboard, publishes, and the public page shows it.
 */
import { signInWithForm } from "./auth-helpers.ts";
import { createOwner, expect, test } from "./fixtures.ts";

test("sign in, add a link, publish and see it on the public page", async ({ page }) => {
  const owner = await createOwner();
  await page.goto("/auth/login");
  await signInWithForm(page, owner.email, owner.password);
  await expect(page).toHaveURL("/dashboard/links");

  await page.getByRole("button", { name: /Add Component|Add Your First Link/ }).first().click();
  const dialog = page.getByRole("dialog", { name: "Add New Link" });
  await dialog.getByLabel("Title").fill("Smoke test link");
  await dialog.getByRole("textbox", { name: "URL", exact: true }).fill("https://example.com/smoke");
  await dialog.getByRole("button", { name: "Add Link" }).click();
  await expect(page.getByTestId("link-row").filter({ hasText: "Smoke test link" })).toBeVisible();

  await page.getByRole("button", { name: "Publish", exact: true }).click();
  // The dashboard reloads itself a moment after the toast: the walk goes on once it has, so no
  // navigation is still under way when the test ends.
  const reloaded = page.waitForEvent("load");
  await page.getByRole("alertdialog", { name: "Publish Changes" }).getByRole("button", { name: "Yes, Publish Now" }).click();
  await expect(page.getByText("Your page has been published!")).toBeVisible();
  await reloaded;

  // A visitor opens the page in a tab of their own, away from the dashboard's own requests.
  const visitor = await page.context().newPage();
  await visitor.goto(`/${owner.username}`);
  await expect(visitor.getByRole("link", { name: "Smoke test link" })).toHaveAttribute("href", "https://example.com/smoke");
});
