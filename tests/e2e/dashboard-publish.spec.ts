/**
 * The draft/publish bar: an edit shows 'Draft Changes'; Publish puts exactly the draft on /{username};
 * Discard brings the draft back to the published version. GET /api/publish/state must answer 200:
 * a build without it fails here rather than skipping.
 */
import { expect, test } from "./fixtures.ts";

test("publish puts the draft on the public page, discard brings the published version back", async ({ page, owner }) => {
  await page.goto("/dashboard/links");
  await expect(page.getByRole("heading", { name: "Page Layout" })).toBeVisible();
  // The bar reads GET /api/publish/state: without it this flow cannot work, which is a failure.
  const state = await page.evaluate(async () => (await fetch("/api/publish/state")).status);
  expect(state, "GET /api/publish/state answers").toBe(200);

  const add = async (title: string) => {
    await page.getByRole("button", { name: /Add Component|Add Your First Link/ }).first().click();
    const d = page.getByRole("dialog", { name: "Add New Link" });
    await d.getByLabel("Title").fill(title);
    await d.getByRole("textbox", { name: "URL", exact: true }).fill("https://example.com/" + title.toLowerCase().replace(/\s/g, "-"));
    await d.getByRole("button", { name: "Add Link" }).click();
    await expect(page.getByTestId("link-row").filter({ hasText: title })).toBeVisible();
  };

  await add("Published link");
  await expect(page.getByText("Draft Changes")).toBeVisible();
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  const dialog = page.getByRole("alertdialog", { name: "Publish Changes" });
  // The dashboard reloads itself a moment after the toast: the test goes on once it has.
  const reloaded = page.waitForEvent("load");
  await dialog.getByRole("button", { name: "Yes, Publish Now" }).click();
  await expect(page.getByText("Your page has been published!")).toBeVisible();
  await expect(page.getByText("Your changes are now live on your public page.")).toBeVisible();
  await reloaded;
  await expect(page.getByText("Draft Changes")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Publish", exact: true })).toBeDisabled();

  const publicPage = await page.context().newPage();
  await publicPage.goto(`/${owner.username}`);
  await expect(publicPage.getByRole("link", { name: "Published link" })).toBeVisible();

  await add("Draft only link");
  await expect(page.getByText("Draft Changes")).toBeVisible();
  await publicPage.reload();
  await expect(publicPage.getByText("Draft only link")).toHaveCount(0);

  await page.getByRole("button", { name: "Discard Changes" }).click();
  const discard = page.getByRole("alertdialog", { name: "Cancel Draft Changes" });
  await expect(discard).toContainText("cannot be undone");
  const reloadedAgain = page.waitForEvent("load");
  await discard.getByRole("button", { name: "Yes, Cancel Changes" }).click();
  await expect(page.getByText("Draft changes have been discarded")).toBeVisible();
  await reloadedAgain;
  await expect(page.getByTestId("link-row").filter({ hasText: "Draft only link" })).toHaveCount(0);
  await expect(page.getByTestId("link-row").filter({ hasText: "Published link" })).toBeVisible();
});

test("a Lite owner without trial using Plus-only features is told which to remove", async ({ page, owner }) => {
  await page.goto("/dashboard/links");
  await expect(page.getByRole("heading", { name: "Page Layout" })).toBeVisible();
  // The bar reads GET /api/publish/state: without it this flow cannot work, which is a failure.
  const state = await page.evaluate(async () => (await fetch("/api/publish/state")).status);
  expect(state, "GET /api/publish/state answers").toBe(200);
  // A contact card added during the trial; then the trial ends.
  const added = await page.evaluate(async () => {
    const r = await fetch("/api/links", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ linkType: "vcf", title: "Card", data: { name: "Ada" } }) });
    return r.status;
  });
  expect(added).toBe(201);
  const { e2eDb } = await import("./fixtures.ts");
  const { userProfiles } = await import("#db/schema.ts");
  const { eq } = await import("drizzle-orm");
  e2eDb().update(userProfiles).set({ trialEndsAt: new Date() }).where(eq(userProfiles.userId, owner.userId)).run();
  await page.reload();
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  // The dialog names the blockers before anything is confirmed (ADR 112).
  const dialog = page.getByRole("dialog", { name: "Publish Changes" });
  await expect(dialog.getByText("Publishing requires Plinth Plus subscription")).toBeVisible();
  await expect(dialog.getByText(/Remove Plus-only features or upgrade to publish your changes\./)).toBeVisible();
  await expect(dialog.getByRole("listitem")).toHaveText(["Contact cards (vCard): “Card” will be hidden (Contact Card links need Plus)"]);
});
