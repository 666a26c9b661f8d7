/**
 * Players, Music and Social links from the dashboard (ADR 215), as a new owner builds them: a YouTube
 * link the dialog recognises and shows as a player, a Music release with a cropped cover and three
 * services put in order by keyboard, a Social button from "@name"; published, the visitor's page shows
 * the player's facade, the services in the owner's order and the social button, and asks nothing of
 * any other host before a press. The dialog with each type passes axe and fits 320 px; a Lite owner
 * sees Music as a Plus type.
 */
import type { Locator, Page } from "@playwright/test";
import sharp from "sharp";
import { expectNoAxeViolations } from "./axe.ts";
import { createOwner, expect, signInAs, test } from "./fixtures.ts";

const YOUTUBE = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";
const SERVICES = {
  Spotify: "https://open.spotify.com/album/4aawyAB9vmqN3uQ7FjRGTy",
  "Apple Music": "https://music.apple.com/us/album/night-drive/1440857781",
  Bandcamp: "https://nightdrive.bandcamp.com/album/night-drive",
} as const;

const addDialog = (page: Page) => page.getByRole("dialog", { name: "Add New Link" });
const toast = (page: Page) => page.locator("[data-sonner-toast][data-front='true']");

async function openAdd(page: Page): Promise<Locator> {
  await page.getByRole("button", { name: /Add Component|Add Your First Link/ }).first().click();
  await expect(addDialog(page)).toBeVisible();
  return addDialog(page);
}

async function addService(d: Locator, label: keyof typeof SERVICES) {
  await d.getByLabel("Add a service").selectOption({ label });
  await d.getByRole("button", { name: "Add service" }).click();
  // The new row's address field takes the focus.
  await expect(d.getByLabel(`${label} address`)).toBeFocused();
  await d.getByLabel(`${label} address`).fill(SERVICES[label]);
}

test("an owner adds a YouTube player, a Music release and a Social button; the visitor's page shows them and asks no other host", async ({ page, owner }) => {
  await page.goto("/dashboard/links");

  // A YouTube address: recognised, the player switch on for a new link; an unknown address has no switch.
  let d = await openAdd(page);
  await d.getByLabel("Title").fill("My new video");
  await d.getByRole("textbox", { name: "URL", exact: true }).fill("https://example.com/watch");
  await expect(d.getByRole("switch", { name: "Show as a player" })).toHaveCount(0);
  await d.getByRole("textbox", { name: "URL", exact: true }).fill(YOUTUBE);
  await expect(d.getByText("Recognised: YouTube")).toBeVisible();
  const player = d.getByRole("switch", { name: "Show as a player" });
  await expect(player).toHaveAttribute("aria-checked", "true");
  await d.getByRole("button", { name: "Add Link" }).click();
  await expect(toast(page)).toContainText("Link added");
  const videoRow = page.getByTestId("link-row").filter({ hasText: "My new video" });
  await expect(videoRow.getByTestId("player-badge")).toHaveText("Player: YouTube");

  // Editing keeps the switch as saved; switched off, the link saves as a plain link, and back on.
  await videoRow.getByRole("button", { name: "Actions for My new video" }).click();
  await page.getByRole("menuitem", { name: "Edit" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Link" });
  await expect(edit.getByRole("switch", { name: "Show as a player" })).toHaveAttribute("aria-checked", "true");
  await edit.getByRole("switch", { name: "Show as a player" }).press("Space");
  await expect(edit.getByRole("switch", { name: "Show as a player" })).toHaveAttribute("aria-checked", "false");
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(videoRow.getByTestId("player-badge")).toHaveCount(0);
  await videoRow.getByRole("button", { name: "Actions for My new video" }).click();
  await page.getByRole("menuitem", { name: "Edit" }).click();
  await expect(edit.getByRole("switch", { name: "Show as a player" })).toHaveAttribute("aria-checked", "false");
  await edit.getByRole("switch", { name: "Show as a player" }).click();
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(videoRow.getByTestId("player-badge")).toHaveText("Player: YouTube");

  // A Music release: a cover chosen and cropped, three services, two of them reordered by keyboard.
  d = await openAdd(page);
  await d.getByLabel("Music", { exact: true }).check();
  await d.getByLabel("Release title").fill("Night Drive");
  const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 30, g: 64, b: 175 } } }).png().toBuffer();
  await d.getByLabel("Choose cover").setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: png });
  const crop = page.getByRole("dialog", { name: "Crop the Cover" });
  await expect(crop.getByRole("group", { name: /Crop area/ })).toBeVisible();
  await crop.getByRole("button", { name: "Save" }).click();
  await expect(toast(page)).toContainText("Cover uploaded");
  await expect(crop).toHaveCount(0);
  await expect(d.getByRole("img", { name: "The release's cover" })).toHaveAttribute("src", /^\/media\/[0-9a-f]{2}\/[0-9a-f]{32}\.jpg$/);

  for (const label of ["Spotify", "Apple Music", "Bandcamp"] as const) await addService(d, label);
  // Services already in the list are not offered again.
  await expect(d.getByLabel("Add a service").locator("option", { hasText: "Spotify" })).toHaveCount(0);
  await expect(d.getByRole("button", { name: "Move Spotify up" })).toBeDisabled();
  await d.getByRole("button", { name: "Move Bandcamp up" }).focus();
  await page.keyboard.press("Enter");
  await expect(d.getByRole("button", { name: "Move Bandcamp up" })).toBeFocused();
  await page.keyboard.press("Enter");
  // First now: its up button is off, so the focus stays on the row with its down button.
  await expect(d.getByRole("button", { name: "Move Bandcamp up" })).toBeDisabled();
  await expect(d.getByRole("button", { name: "Move Bandcamp down" })).toBeFocused();
  await expect(d.getByTestId("music-service-row").locator("label")).toHaveText(["Bandcamp address", "Spotify address", "Apple Music address"]);
  await d.getByRole("button", { name: "Add Link" }).click();
  await expect(toast(page)).toContainText("Link added");
  await expect(page.getByTestId("link-row").filter({ hasText: "Night Drive" })).toContainText("Music");

  // A Social button: the platform's name as the title, "@name" cleaned to the handle as the social icons do.
  d = await openAdd(page);
  await d.getByLabel("Social", { exact: true }).check();
  await d.getByLabel("Platform").selectOption({ label: "Instagram" });
  await expect(d.getByLabel("Title")).toHaveValue("Instagram");
  await d.getByLabel("Username").fill("@plinth.tester");
  await d.getByLabel("Username").blur();
  await expect(d.getByLabel("Username")).toHaveValue("plinth.tester");
  await d.getByRole("button", { name: "Add Link" }).click();
  await expect(toast(page)).toContainText("Link added");
  await expect(page.getByTestId("link-row").filter({ hasText: "https://www.instagram.com/plinth.tester" })).toBeVisible();

  await page.getByRole("button", { name: "Publish", exact: true }).click();
  const reloaded = page.waitForEvent("load");
  await page.getByRole("alertdialog", { name: "Publish Changes" }).getByRole("button", { name: "Yes, Publish Now" }).click();
  await expect(page.getByText("Your page has been published!")).toBeVisible();
  await reloaded;

  // The visitor's page: every request it makes before a press stays on this host.
  const visitor = await page.context().newPage();
  const elsewhere: string[] = [];
  await visitor.route("**/*", (route) => {
    const { hostname } = new URL(route.request().url());
    if (hostname === "localhost" || hostname === "127.0.0.1") return route.continue();
    elsewhere.push(route.request().url());
    return route.abort("blockedbyclient");
  });
  await visitor.goto(`/${owner.username}`);
  await expect(visitor.getByRole("button", { name: "Play My new video (YouTube)" })).toBeVisible();
  await expect(visitor.locator("iframe")).toHaveCount(0);
  const listen = visitor.getByRole("list", { name: "Listen to Night Drive" });
  await expect(listen.getByRole("link")).toHaveText(["Bandcamp", "Spotify", "Apple Music"]);
  await expect(listen.getByRole("link", { name: "Bandcamp" })).toHaveAttribute("href", SERVICES.Bandcamp);
  // The card shows the cropped cover.
  await expect(visitor.locator("li", { has: listen }).locator("img").first()).toHaveAttribute("src", /^\/media\/[0-9a-f]{2}\/[0-9a-f]{32}\.jpg$/);
  await expect(visitor.getByRole("link", { name: "Instagram" })).toHaveAttribute("href", "https://www.instagram.com/plinth.tester");
  await visitor.waitForLoadState("load");
  expect(elsewhere).toEqual([]);
});

test("the link dialog with each new type passes axe, fits 320 px and gives the focus back to its opener", async ({ page, owner: _owner }) => {
  await page.setViewportSize({ width: 320, height: 720 });
  await page.goto("/dashboard/links");
  const d = await openAdd(page);
  const fits = async () => expect(await d.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

  await d.getByLabel("Title").fill("Video");
  await d.getByRole("textbox", { name: "URL", exact: true }).fill("vimeo.com/76979871");
  await d.getByRole("textbox", { name: "URL", exact: true }).blur();
  await expect(d.getByText("Recognised: Vimeo")).toBeVisible();
  await expect(d.getByRole("switch", { name: "Show as a player" })).toHaveAttribute("aria-checked", "true");
  await fits();
  await expectNoAxeViolations(page, "link dialog: a recognised address");

  await d.getByLabel("Music", { exact: true }).check();
  for (const label of ["Spotify", "Apple Music"] as const) await addService(d, label);
  await fits();
  await expectNoAxeViolations(page, "link dialog: Music");
  // Removing a service gives the focus to the next one's remove button.
  await d.getByRole("button", { name: "Remove Spotify" }).click();
  await expect(d.getByRole("button", { name: "Remove Apple Music" })).toBeFocused();

  await d.getByLabel("Social", { exact: true }).check();
  // The title follows the platform until the owner types their own.
  await d.getByLabel("Title").fill("");
  await d.getByLabel("Platform").selectOption({ label: "Instagram" });
  await expect(d.getByLabel("Title")).toHaveValue("Instagram");
  await d.getByLabel("Platform").selectOption({ label: "WhatsApp" });
  await expect(d.getByLabel("Title")).toHaveValue("WhatsApp");
  await d.getByLabel("Title").fill("Chat with me");
  await d.getByLabel("Platform").selectOption({ label: "Instagram" });
  await expect(d.getByLabel("Title")).toHaveValue("Chat with me");
  await d.getByLabel("Platform").selectOption({ label: "WhatsApp" });
  await d.getByLabel("Country code and phone number").fill("no digits");
  await d.getByRole("button", { name: "Add Link" }).click();
  await expect(d.getByText("Please enter a valid phone number for WhatsApp")).toBeVisible();
  await expect(d.getByLabel("Country code and phone number")).toHaveAttribute("aria-invalid", "true");
  await fits();
  await expectNoAxeViolations(page, "link dialog: Social");

  await d.getByRole("button", { name: "Cancel" }).click();
  await expect(addDialog(page)).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Add Component|Add Your First Link/ }).first()).toBeFocused();
});

test("a Music release refused for its services says why by the field, and saves nothing", async ({ page, owner: _owner }) => {
  await page.goto("/dashboard/links");
  const d = await openAdd(page);
  await d.getByLabel("Music", { exact: true }).check();
  await d.getByLabel("Release title").fill("No services yet");
  await d.getByRole("button", { name: "Add Link" }).click();
  const services = d.getByRole("group", { name: /Services/ });
  await expect(services).toHaveAccessibleDescription("Add the release's address on at least one service");
  await addService(d, "Spotify");
  await d.getByLabel("Spotify address").fill("javascript:alert(1)");
  await d.getByRole("button", { name: "Add Link" }).click();
  await expect(d.getByLabel("Spotify address")).toHaveAttribute("aria-invalid", "true");
  await expect(d.getByLabel("Spotify address")).toHaveAccessibleDescription("Please enter a valid URL");
  // Another service's address in Spotify's row.
  await d.getByLabel("Spotify address").fill("music.apple.com/us/album/night-drive/1440857781");
  await d.getByRole("button", { name: "Add Link" }).click();
  await expect(d.getByLabel("Spotify address")).toHaveValue("https://music.apple.com/us/album/night-drive/1440857781");
  await expect(d.getByLabel("Spotify address")).toHaveAccessibleDescription("This is not a Spotify address");
  await expect(addDialog(page)).toBeVisible();
  await d.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("link-row")).toHaveCount(0);
});

test("a Lite owner sees Music as a Plus type, as the other Plus types", async ({ page, context }) => {
  const lite = await createOwner({ trial: false });
  await context.clearCookies();
  await signInAs(context, lite);
  await page.goto("/dashboard/links");
  const d = await openAdd(page);
  const card = (name: string) => d.getByRole("group", { name: "Link type" }).locator("div.relative").filter({ has: page.getByRole("radio", { name, exact: true }) });
  await expect(card("Contact Card").getByRole("button", { name: /^PLUS/ })).toHaveCount(1);
  await expect(card("Music").getByRole("button", { name: /^PLUS/ })).toHaveCount(1);
  // Social buttons are Lite links, as social icons are.
  await expect(card("Social").getByRole("button", { name: /^PLUS/ })).toHaveCount(0);
  await d.getByLabel("Music", { exact: true }).click();
  await expect(page.getByRole("dialog", { name: "Upgrade to Plinth Plus" })).toBeVisible();
});
