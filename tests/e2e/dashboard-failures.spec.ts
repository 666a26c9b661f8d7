/**
 * The dashboard when the API fails (docs/product.md section 8): each screen's toast with docs/product.md's exact title
 * and description, and nothing half-saved afterwards. Failures are made the way an owner meets them:
 * the connection drops (the request is aborted in the browser) or the server answers with an error.
 */
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { DASH } from "#core/dashboard-texts.ts";
import { PICTURE_MESSAGES, PICTURE_TOO_LARGE } from "#core/schemas/profile.ts";
import { expect, liftWithKeyboard, test } from "./fixtures.ts";

type Failure = "network" | { status: number; message?: string; details?: Record<string, unknown> };

/**
 * Makes `method path` fail until stopped; other methods on the same path reach the server. `hits`
 * counts the failed requests, so a test can tell the request was made at all.
 */
async function failApi(page: Page, method: string, path: string | RegExp, how: Failure) {
  await markToastsSeen(page);
  const hits: string[] = [];
  const matcher = (url: URL) => (typeof path === "string" ? url.pathname === path : path.test(url.pathname));
  await page.route(matcher, async (route) => {
    if (route.request().method() !== method) return route.fallback();
    hits.push(route.request().url());
    if (how === "network") return route.abort("internetdisconnected");
    const error = { code: how.status >= 500 ? "internal" : "conflict", message: how.message ?? "Something went wrong. Please try again later.", ...(how.details ? { details: how.details } : {}) };
    return route.fulfill({ status: how.status, json: { error } });
  });
  return { hits, stop: () => page.unroute(matcher) };
}

/**
 * Toasts already on screen are marked, so the next failure's toast is told from an identical earlier
 * one that has not timed out yet (React leaves an attribute it does not own in place).
 */
async function markToastsSeen(page: Page) {
  await page.evaluate(() => document.querySelectorAll("[data-sonner-toast]").forEach((t) => t.setAttribute("data-seen", "")));
}

const toasts = (page: Page) => page.getByRole("region", { name: /^Notifications/ }).getByRole("listitem").and(page.locator(":not([data-seen])"));

/**
 * An error toast with exactly this title and description (none when null), checked in one assertion
 * so the toast's own display time never matters.
 */
async function expectErrorToast(page: Page, title: string, description: string | null) {
  const titled = toasts(page)
    .and(page.locator("[data-type='error']"))
    .filter({ has: page.locator("[data-title]").getByText(title, { exact: true }) });
  const toast =
    description === null
      ? titled.filter({ hasNot: page.locator("[data-description]") })
      : titled.filter({ has: page.locator("[data-description]").getByText(description, { exact: true }) });
  await expect(toast).toBeVisible();
  return toast;
}

/** Links made through the API from the dashboard's own origin; the page is reloaded to show them. */
async function seedLinks(page: Page, titles: string[]) {
  const statuses = await page.evaluate(async (list) => {
    const out: number[] = [];
    for (const title of list) {
      const body = JSON.stringify({ linkType: "standard_url", title, url: `https://example.com/${encodeURIComponent(title)}` });
      out.push((await fetch("/api/links", { method: "POST", headers: { "Content-Type": "application/json" }, body })).status);
    }
    return out;
  }, titles);
  expect(statuses).toEqual(titles.map(() => 201));
  await page.reload();
}

async function seedSocial(page: Page, entries: [platform: string, handle: string][]) {
  const statuses = await page.evaluate(async (list) => {
    const out: number[] = [];
    for (const [platform, handle] of list) {
      out.push((await fetch("/api/social-links", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ platform, handle }) })).status);
    }
    return out;
  }, entries);
  expect(statuses).toEqual(entries.map(() => 201));
  await page.reload();
}

test.describe("Page Layout (links)", () => {
  test("a failed load says 'Failed to load links' under the title Error, and Try again loads them", async ({ page, owner }) => {
    expect(owner.username).toBeTruthy();
    await page.goto("/dashboard/links");
    await seedLinks(page, ["Saved link"]);
    await expect(page.getByTestId("link-row")).toHaveCount(1);

    const fail = await failApi(page, "GET", "/api/links", "network");
    await page.reload();
    await expectErrorToast(page, "Error", DASH.linksLoadFailed);
    expect(fail.hits.length).toBeGreaterThan(0);
    // Not loading any more (ADR 120): the failure in place, and a retry.
    const main = page.getByRole("main");
    await expect(main.getByText(DASH.linksLoadFailed, { exact: true })).toBeVisible();
    await expect(page.getByText("Loading components...")).toHaveCount(0);
    await expect(page.getByTestId("link-row")).toHaveCount(0);
    await fail.stop();
    await main.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByTestId("link-row").filter({ hasText: "Saved link" })).toBeVisible();
    await expect(main.getByText(DASH.linksLoadFailed)).toHaveCount(0);
  });

  test("failed add, update, hide and delete say so, and the list keeps only what the server has", async ({ page, owner }) => {
    expect(owner.username).toBeTruthy();
    await page.goto("/dashboard/links");
    await expect(page.getByRole("heading", { name: "Page Layout" })).toBeVisible();
    await seedLinks(page, ["Kept link"]);
    const rows = page.getByTestId("link-row");
    await expect(rows).toHaveCount(1);

    // Add while the connection is down: the toast, the dialog keeps what was typed, no new row.
    const add = await failApi(page, "POST", "/api/links", "network");
    await page.getByRole("button", { name: "Add Component" }).click();
    const addDialog = page.getByRole("dialog", { name: "Add New Link" });
    await addDialog.getByLabel("Title").fill("Never saved");
    await addDialog.getByRole("textbox", { name: "URL", exact: true }).fill("https://example.com/never");
    await addDialog.getByRole("button", { name: "Add Link" }).click();
    await expectErrorToast(page, "Error", DASH.linkAddFailed);
    expect(add.hits).toHaveLength(1);
    await expect(addDialog.getByLabel("Title")).toHaveValue("Never saved");
    await addDialog.getByRole("button", { name: "Cancel" }).click();
    await expect(addDialog).toBeHidden();
    await expect(rows).toHaveCount(1);
    await expect(rows.filter({ hasText: "Never saved" })).toHaveCount(0);
    await add.stop();

    // Edit answered by a server error: the row keeps its title.
    const edit = await failApi(page, "PATCH", /^\/api\/links\/[^/]+$/, { status: 500 });
    await page.getByRole("button", { name: "Actions for Kept link" }).click();
    await page.getByRole("menuitem", { name: "Edit" }).click();
    const editDialog = page.getByRole("dialog", { name: "Edit Link" });
    await editDialog.getByLabel("Title").fill("Renamed link");
    await editDialog.getByRole("button", { name: "Save Changes" }).click();
    await expectErrorToast(page, "Error", DASH.linkUpdateFailed);
    expect(edit.hits).toHaveLength(1);
    await editDialog.getByRole("button", { name: "Cancel" }).click();
    await expect(rows.filter({ hasText: "Renamed link" })).toHaveCount(0);
    await expect(rows.filter({ hasText: "Kept link" })).toBeVisible();
    await edit.stop();

    // Hiding fails: the switch stays on.
    const hide = await failApi(page, "PATCH", /^\/api\/links\/[^/]+\/visibility$/, "network");
    const visible = page.getByRole("switch", { name: "Visible: Kept link" });
    await visible.click();
    await expectErrorToast(page, "Error", DASH.linkUpdateFailed);
    expect(hide.hits).toHaveLength(1);
    await expect(visible).toHaveAttribute("aria-checked", "true");
    await hide.stop();

    // Delete fails: the row stays.
    const del = await failApi(page, "DELETE", /^\/api\/links\/[^/]+$/, "network");
    await page.getByRole("button", { name: "Actions for Kept link" }).click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    await page.getByRole("alertdialog", { name: "Delete Link" }).getByRole("button", { name: "Delete" }).click();
    await expectErrorToast(page, "Error", DASH.linkDeleteFailed);
    expect(del.hits).toHaveLength(1);
    await expect(page.getByRole("alertdialog")).toBeHidden();
    await expect(rows.filter({ hasText: "Kept link" })).toBeVisible();
    await del.stop();

    // What the screen shows is what the server has.
    await page.reload();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("Kept link");
    await expect(page.getByRole("switch", { name: "Visible: Kept link" })).toHaveAttribute("aria-checked", "true");
  });
});

test.describe("Social Links", () => {
  test("a failed load says 'Failed to load social links', and Try again loads them", async ({ page, owner }) => {
    expect(owner.username).toBeTruthy();
    await page.goto("/dashboard/social-links");
    await seedSocial(page, [["github", "ada"]]);
    await expect(page.getByTestId("social-row")).toHaveCount(1);

    const fail = await failApi(page, "GET", "/api/social-links", { status: 500 });
    await page.reload();
    await expectErrorToast(page, DASH.socialLoadFailed, null);
    expect(fail.hits.length).toBeGreaterThan(0);
    const main = page.getByRole("main");
    await expect(main.getByText(DASH.socialLoadFailed, { exact: true })).toBeVisible();
    await expect(main.getByText("Loading...")).toHaveCount(0);
    await expect(page.getByTestId("social-row")).toHaveCount(0);
    await fail.stop();
    await main.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByTestId("social-row").filter({ hasText: "GitHub" })).toBeVisible();
    await expect(main.getByText(DASH.socialLoadFailed)).toHaveCount(0);
  });

  test("failed add, update, hide and remove say so and leave the list as the server has it", async ({ page, owner }) => {
    expect(owner.username).toBeTruthy();
    await page.goto("/dashboard/social-links");
    await expect(page.getByRole("heading", { name: "Social Links", level: 1 })).toBeVisible();
    await seedSocial(page, [["github", "ada"]]);
    const rows = page.getByTestId("social-row");
    await expect(rows).toHaveCount(1);

    const add = await failApi(page, "POST", "/api/social-links", "network");
    await page.getByRole("button", { name: "Instagram", exact: true }).click();
    const addDialog = page.getByRole("dialog", { name: "Add Instagram Link" });
    await addDialog.getByRole("textbox").fill("ada_l");
    await addDialog.getByRole("button", { name: "Add Link" }).click();
    await expectErrorToast(page, DASH.socialAddFailed, null);
    expect(add.hits).toHaveLength(1);
    await addDialog.getByRole("button", { name: "Cancel" }).click();
    await expect(rows).toHaveCount(1);
    await expect(rows.filter({ hasText: "Instagram" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Instagram", exact: true })).toBeVisible();
    await add.stop();

    const edit = await failApi(page, "PATCH", /^\/api\/social-links\/[^/]+$/, { status: 500 });
    await page.getByRole("button", { name: "Actions for GitHub" }).click();
    await page.getByRole("menuitem", { name: "Edit" }).click();
    const editDialog = page.getByRole("dialog", { name: "Edit GitHub Link" });
    await editDialog.getByLabel("Username/Handle").fill("lovelace");
    await editDialog.getByRole("button", { name: "Save Changes" }).click();
    await expectErrorToast(page, DASH.socialUpdateFailed, null);
    expect(edit.hits).toHaveLength(1);
    await editDialog.getByRole("button", { name: "Cancel" }).click();
    await expect(rows.first()).toContainText("https://github.com/ada");
    await edit.stop();

    const hide = await failApi(page, "PATCH", /^\/api\/social-links\/[^/]+\/visibility$/, "network");
    await page.getByRole("switch", { name: "Visible: GitHub" }).click();
    await expectErrorToast(page, DASH.socialUpdateFailed, null);
    expect(hide.hits).toHaveLength(1);
    await expect(page.getByRole("switch", { name: "Visible: GitHub" })).toHaveAttribute("aria-checked", "true");
    await hide.stop();

    const del = await failApi(page, "DELETE", /^\/api\/social-links\/[^/]+$/, "network");
    await page.getByRole("button", { name: "Actions for GitHub" }).click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    await page.getByRole("alertdialog", { name: "Delete Social Link" }).getByRole("button", { name: "Delete" }).click();
    await expectErrorToast(page, DASH.socialRemoveFailed, null);
    expect(del.hits).toHaveLength(1);
    await expect(rows).toHaveCount(1);
    await del.stop();

    await page.reload();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("https://github.com/ada");
    await expect(page.getByRole("switch", { name: "Visible: GitHub" })).toHaveAttribute("aria-checked", "true");
  });

  test("a failed reorder says 'Failed to reorder social links' and reloads the server's order", async ({ page, owner }) => {
    expect(owner.username).toBeTruthy();
    await page.goto("/dashboard/social-links");
    await seedSocial(page, [
      ["instagram", "ada_l"],
      ["github", "ada"],
    ]);
    const rows = page.getByTestId("social-row");
    await expect(rows.nth(0)).toContainText("Instagram");
    await expect(rows.nth(1)).toContainText("GitHub");

    const order = await failApi(page, "PUT", "/api/social-links/order", { status: 500 });
    const reloaded = page.waitForRequest((r) => r.method() === "GET" && new URL(r.url()).pathname === "/api/social-links");
    await liftWithKeyboard(page, page.getByRole("button", { name: "Reorder Instagram" }));
    await page.keyboard.press("ArrowDown");
    await expect(page.getByRole("status").filter({ hasText: "Instagram is over GitHub." })).toBeAttached();
    await page.keyboard.press("Space");
    await expectErrorToast(page, DASH.socialReorderFailed, null);
    expect(order.hits).toHaveLength(1);
    await reloaded;
    await expect(rows.nth(0)).toContainText("Instagram");
    await expect(rows.nth(1)).toContainText("GitHub");
    await expect(page.getByText(DASH.socialReordered)).toHaveCount(0);
  });
});

test.describe("Publish and discard", () => {
  test("a failed publish shows docs/product.md's fallback, or the server's message for a 4xx; the draft stays", async ({ page, owner }) => {
    expect(owner.username).toBeTruthy();
    await page.goto("/dashboard/links");
    await seedLinks(page, ["Draft link"]);
    await expect(page.getByText("Draft Changes")).toBeVisible();
    const publishButton = page.getByRole("button", { name: "Publish", exact: true });
    const publishOnce = async () => {
      await publishButton.click();
      await page.getByRole("alertdialog", { name: "Publish Changes" }).getByRole("button", { name: "Yes, Publish Now" }).click();
    };

    const offline = await failApi(page, "POST", "/api/publish", "network");
    await publishOnce();
    await expectErrorToast(page, DASH.publishFailed, DASH.publishFailedText);
    expect(offline.hits).toHaveLength(1);
    await expect(page.getByRole("alertdialog")).toBeHidden();
    await offline.stop();

    // A server error's generic text says less than docs/product.md's fallback.
    const crashed = await failApi(page, "POST", "/api/publish", { status: 500, message: "Something went wrong. Please try again later." });
    await publishOnce();
    await expectErrorToast(page, DASH.publishFailed, DASH.publishFailedText);
    expect(crashed.hits).toHaveLength(1);
    await crashed.stop();

    const refused = "Your page is being published from another tab. Please try again in a moment.";
    const conflict = await failApi(page, "POST", "/api/publish", { status: 409, message: refused });
    await publishOnce();
    await expectErrorToast(page, DASH.publishFailed, refused);
    expect(conflict.hits).toHaveLength(1);
    await conflict.stop();

    // Nothing was published: the draft is still a draft, and Publish still works afterwards.
    await expect(page.getByText("Draft Changes")).toBeVisible();
    await expect(page.getByText(DASH.published)).toHaveCount(0);
    await publishOnce();
    await expect(page.getByText(DASH.published)).toBeVisible();
  });

  test("a failed discard says 'Failed to discard changes' and keeps the draft", async ({ page, owner }) => {
    expect(owner.username).toBeTruthy();
    await page.goto("/dashboard/links");
    await seedLinks(page, ["Draft link"]);
    await expect(page.getByText("Draft Changes")).toBeVisible();

    const fail = await failApi(page, "POST", "/api/publish/discard", "network");
    await page.getByRole("button", { name: "Discard Changes" }).click();
    await page.getByRole("alertdialog", { name: "Cancel Draft Changes" }).getByRole("button", { name: "Yes, Cancel Changes" }).click();
    await expectErrorToast(page, DASH.discardFailed, null);
    expect(fail.hits).toHaveLength(1);
    await expect(page.getByRole("alertdialog")).toBeHidden();
    await expect(page.getByText("Draft Changes")).toBeVisible();
    await expect(page.getByText(DASH.discarded)).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId("link-row").filter({ hasText: "Draft link" })).toBeVisible();
    await expect(page.getByText("Draft Changes")).toBeVisible();
  });
});

test.describe("Profile Picture", () => {
  async function photo(): Promise<Buffer> {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400"><rect width="100%" height="100%" fill="#1e293b"/><circle cx="300" cy="200" r="200" fill="#ffffff"/></svg>`;
    return sharp(Buffer.from(svg)).jpeg().toBuffer();
  }
  const cropDialog = (page: Page) => page.getByRole("dialog", { name: "Crop Your Profile Picture" });
  async function chooseAndSave(page: Page) {
    await page.getByLabel("Choose File").setInputFiles({ name: "me.jpg", mimeType: "image/jpeg", buffer: await photo() });
    await expect(cropDialog(page)).toBeVisible();
    await cropDialog(page).getByRole("button", { name: "Save" }).click();
  }

  test("a failed upload says 'Failed to upload profile picture', or the server's refusal; the picture is unchanged", async ({ page, owner }) => {
    expect(owner.username).toBeTruthy();
    await page.goto("/dashboard/profile-picture");
    await expect(page.getByRole("img", { name: /No picture yet/ })).toBeVisible();

    const offline = await failApi(page, "POST", "/api/profile/picture", "network");
    await chooseAndSave(page);
    await expectErrorToast(page, PICTURE_MESSAGES.uploadFailed, "Please try again.");
    expect(offline.hits).toHaveLength(1);
    // The crop stays open, so Save can be pressed again once the connection is back.
    await expect(cropDialog(page)).toBeVisible();
    await cropDialog(page).getByRole("button", { name: "Cancel" }).click();
    await offline.stop();

    const refused = await failApi(page, "POST", "/api/profile/picture", { status: 413, message: PICTURE_TOO_LARGE.title, details: { description: PICTURE_TOO_LARGE.text } });
    await chooseAndSave(page);
    await expectErrorToast(page, PICTURE_TOO_LARGE.title, PICTURE_TOO_LARGE.text);
    expect(refused.hits).toHaveLength(1);
    await cropDialog(page).getByRole("button", { name: "Cancel" }).click();
    await refused.stop();

    await expect(page.getByTestId("current-picture")).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole("img", { name: /No picture yet/ })).toBeVisible();
  });

  test("a failed style change says 'Failed to update profile picture style' and the choice goes back", async ({ page, owner }) => {
    expect(owner.username).toBeTruthy();
    await page.goto("/dashboard/profile-picture");
    const style = page.getByRole("group", { name: "Style" });
    await expect(style.getByRole("radio", { name: "Picture" })).toBeChecked();

    const fail = await failApi(page, "PATCH", "/api/profile/picture-settings", "network");
    await style.getByRole("radio", { name: "Initials" }).click();
    await expectErrorToast(page, PICTURE_MESSAGES.styleFailed, null);
    expect(fail.hits).toHaveLength(1);
    await expect(style.getByRole("radio", { name: "Picture" })).toBeChecked();
    await expect(style.getByRole("radio", { name: "Initials" })).not.toBeChecked();
    await fail.stop();

    // The same choice saves once the server answers.
    await style.getByRole("radio", { name: "Initials" }).click();
    await expect(page.getByText(PICTURE_MESSAGES.styleUpdated)).toBeVisible();
    await page.reload();
    await expect(page.getByRole("group", { name: "Style" }).getByRole("radio", { name: "Initials" })).toBeChecked();
  });

  test("a failed removal says 'Failed to remove profile picture' and keeps the picture", async ({ page, owner }) => {
    expect(owner.username).toBeTruthy();
    await page.goto("/dashboard/profile-picture");
    await chooseAndSave(page);
    await expect(page.getByText(PICTURE_MESSAGES.uploaded)).toBeVisible();
    const picture = page.getByTestId("current-picture");
    await expect(picture).toHaveAttribute("src", /^\/media\//);
    const src = await picture.getAttribute("src");

    const fail = await failApi(page, "DELETE", "/api/profile/picture", { status: 500 });
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("alertdialog", { name: "Delete Profile Picture" }).getByRole("button", { name: "Delete" }).click();
    await expectErrorToast(page, PICTURE_MESSAGES.removeFailed, null);
    expect(fail.hits).toHaveLength(1);
    await expect(page.getByRole("alertdialog")).toBeHidden();
    await expect(picture).toHaveAttribute("src", src!);
    await page.reload();
    await expect(page.getByTestId("current-picture")).toHaveAttribute("src", src!);
  });
});
