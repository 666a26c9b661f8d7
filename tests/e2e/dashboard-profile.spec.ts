/**
 * Profile Picture as an owner uses it: real JPEG, PNG and GIF files through the crop dialog to the
 * published page; refused files with docs/product.md's messages; every style and shape on the published
 * page; initials; the enlarged view; deleting.
 */
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { expect, test } from "./fixtures.ts";

/** A test photo: a white disc on a dark frame, so a zoomed-in crop (all disc) is told from a full one. */
async function photo(format: "jpeg" | "png" | "gif", width: number, height: number): Promise<Buffer> {
  const r = Math.min(width, height) / 2;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#1e293b"/><circle cx="${width / 2}" cy="${height / 2}" r="${r}" fill="#ffffff"/></svg>`;
  const s = sharp(Buffer.from(svg));
  return format === "png" ? s.ensureAlpha().png().toBuffer() : s.toFormat(format).toBuffer();
}

/** The toast in front (toasts show one at a time). */
const toast = (page: Page) => page.locator("[data-sonner-toast][data-front='true']");

async function choose(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  await page.getByLabel("Choose File").setInputFiles(file);
}

async function cropAndSave(page: Page, zoom?: string) {
  const dialog = page.getByRole("dialog", { name: "Crop Your Profile Picture" });
  await expect(dialog).toBeVisible();
  const slider = dialog.getByRole("slider", { name: "Zoom" });
  await expect(slider).toHaveAttribute("min", "1");
  await expect(slider).toHaveAttribute("max", "3");
  await expect(slider).toHaveAttribute("step", "0.1");
  await expect(slider).toHaveValue("1");
  if (zoom) await slider.fill(zoom);
  await expect(dialog.getByText(/mouse wheel|Pinch/)).toBeVisible();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(toast(page)).toContainText("Profile picture updated");
  await expect(dialog).toBeHidden();
}

/** Publish the draft the way the status bar does (same-origin fetch from the dashboard). */
async function publish(page: Page) {
  const status = await page.evaluate(async () => (await fetch("/api/publish", { method: "POST" })).status);
  expect(status).toBe(200);
}

async function publishedPicture(page: Page, username: string) {
  const visitor = await page.context().newPage();
  await visitor.goto(`/${username}`);
  const img = visitor.locator("main img").first();
  await expect(img).toBeVisible();
  const info = await img.evaluate(async (el: HTMLImageElement) => {
    await el.decode();
    const style = getComputedStyle(el);
    return { src: el.getAttribute("src"), w: el.naturalWidth, h: el.naturalHeight, radius: style.borderTopLeftRadius, width: el.getBoundingClientRect().width, height: el.getBoundingClientRect().height };
  });
  await visitor.close();
  return info;
}

async function brightness(page: Page, src: string): Promise<number> {
  const res = await page.request.get(src);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("image/jpeg");
  const stats = await sharp(await res.body()).stats();
  return stats.channels[0]!.mean;
}

test("uploads a real JPEG and PNG through the crop dialog; the published page shows the 400 px crop", async ({ page, owner }) => {
  await page.goto("/dashboard/profile-picture");
  await expect(page.getByRole("heading", { name: "Profile Picture", level: 1 })).toBeVisible();
  await expect(page.getByRole("img", { name: /No picture yet/ })).toBeVisible();

  // JPEG, zoomed all the way in: the crop is the middle of the white disc.
  await choose(page, { name: "holiday.jpg", mimeType: "image/jpeg", buffer: await photo("jpeg", 1600, 1000) });
  await cropAndSave(page, "3");
  await expect(page.getByTestId("current-picture")).toHaveAttribute("src", /^\/media\/[0-9a-f]{2}\/[0-9a-f]{32}\.jpg$/);
  // The top bar's avatar follows.
  await expect(page.getByRole("button", { name: "User menu" }).locator("img")).toHaveAttribute("src", /^\/media\//);
  await expect(page.getByText("Draft Changes")).toBeVisible();
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  // The dashboard reloads itself a moment after publishing (docs/product.md section 9).
  const reloaded = page.waitForEvent("load");
  await page.getByRole("alertdialog", { name: "Publish Changes" }).getByRole("button", { name: "Yes, Publish Now" }).click();
  await expect(page.getByText("Your page has been published!")).toBeVisible();
  await reloaded;

  const jpeg = await publishedPicture(page, owner.username);
  expect([jpeg.w, jpeg.h]).toEqual([400, 400]);
  expect(jpeg.src).toMatch(/^\/media\//);
  expect(await brightness(page, jpeg.src!)).toBeGreaterThan(245);

  // PNG, portrait, at the initial scale: the shorter side fits, so the dark frame shows at the corners.
  await expect(page.getByRole("heading", { name: "Profile Picture", level: 1 })).toBeVisible();
  await choose(page, { name: "me.png", mimeType: "image/png", buffer: await photo("png", 600, 900) });
  await cropAndSave(page);
  await publish(page);
  const png = await publishedPicture(page, owner.username);
  expect([png.w, png.h]).toEqual([400, 400]);
  expect(png.src).not.toBe(jpeg.src);
  expect(await brightness(page, png.src!)).toBeLessThan(230);

  // The enlarged view.
  await page.getByRole("button", { name: "Enlarge your profile picture" }).click();
  const big = page.getByRole("dialog", { name: "Profile picture" });
  await expect(big.getByRole("img", { name: "Your profile picture, enlarged" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(big).toBeHidden();
});

test("accepts a GIF; refuses an SVG, a renamed text file and a 3 MB image with docs/product.md's messages", async ({ page, owner }) => {
  expect(owner.username).toBeTruthy();
  await page.goto("/dashboard/profile-picture");
  await expect(page.getByRole("heading", { name: "Profile Picture", level: 1 })).toBeVisible();
  const crop = page.getByRole("dialog", { name: "Crop Your Profile Picture" });

  await choose(page, { name: "avatar.svg", mimeType: "image/svg+xml", buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>') });
  await expect(toast(page)).toContainText("Invalid file type");
  await expect(toast(page)).toContainText("Please select a valid image file (JPG, PNG, GIF)");
  await expect(crop).toBeHidden();

  // 3 MB of noise: a real image, too large.
  const noise = await sharp(Buffer.from(Array.from({ length: 1400 * 1400 * 3 }, () => Math.floor(Math.random() * 256))), { raw: { width: 1400, height: 1400, channels: 3 } })
    .jpeg({ quality: 100 })
    .toBuffer();
  expect(noise.length).toBeGreaterThan(2 * 1024 * 1024);
  await choose(page, { name: "huge.jpg", mimeType: "image/jpeg", buffer: noise });
  await expect(toast(page)).toContainText("File too large");
  await expect(toast(page)).toContainText("Please select an image smaller than 2MB");
  await expect(crop).toBeHidden();

  await choose(page, { name: "notes.jpg", mimeType: "image/jpeg", buffer: Buffer.from("These are my notes, not a picture.") });
  await expect(toast(page)).toContainText("Invalid file type");
  await expect(toast(page)).toContainText("Please select a valid image file (JPG, PNG, GIF)");
  await expect(crop).toBeHidden();

  await choose(page, { name: "wave.gif", mimeType: "image/gif", buffer: await photo("gif", 500, 500) });
  await cropAndSave(page);
  await expect(page.getByTestId("current-picture")).toBeVisible();

  // Cancel leaves everything as it was.
  const before = await page.getByTestId("current-picture").getAttribute("src");
  await choose(page, { name: "other.jpg", mimeType: "image/jpeg", buffer: await photo("jpeg", 500, 500) });
  await crop.getByRole("button", { name: "Cancel" }).click();
  await expect(crop).toBeHidden();
  await expect(page.getByTestId("current-picture")).toHaveAttribute("src", before!);
});

test("every style and shape reaches the published page; initials; delete", async ({ page, owner }) => {
  // Seven publishes and four crops in one walk: more than a minute on a busy two-core machine.
  test.setTimeout(120_000);
  await page.goto("/dashboard/profile-picture");
  await choose(page, { name: "me.jpg", mimeType: "image/jpeg", buffer: await photo("jpeg", 800, 800) });
  await cropAndSave(page);

  const settingsSaved = () => page.waitForResponse((r) => r.url().endsWith("/api/profile/picture-settings") && r.request().method() === "PATCH" && r.ok());
  async function pick(group: string, option: string) {
    const saved = settingsSaved();
    await page.getByRole("group", { name: group }).getByRole("radio", { name: new RegExp(`^${option}`) }).check();
    await saved;
    await expect(toast(page)).toContainText("Profile picture style updated");
  }

  // Icon shapes
  const radii: Record<string, (r: string) => boolean> = {
    Circle: (r) => r === "50%" || parseFloat(r) >= 48,
    Rounded: (r) => parseFloat(r) > 0 && parseFloat(r) < 48,
    Square: (r) => parseFloat(r) === 0,
  };
  for (const shape of ["Square", "Rounded", "Circle"]) {
    await pick("Shape", shape);
    await publish(page);
    const pic = await publishedPicture(page, owner.username);
    expect(radii[shape]!(pic.radius), `${shape}: ${pic.radius}`).toBe(true);
    expect(pic.width).toBeLessThan(200);
  }

  // Full width has its own crop: until there is one the page keeps the square icon, never stretched.
  await pick("Layout", "Full width");
  await expect(page.getByTestId("picture-layout-note")).toContainText("Your page shows your icon picture until you choose a picture for the full-width layout");
  await publish(page);
  const before = await publishedPicture(page, owner.username);
  expect([before.w, before.h, before.width < 200]).toEqual([400, 400, true]);
  // Each height crops at its own aspect, in the dialog and in the file the page shows.
  const ratios: Record<string, number> = {};
  for (const [height, size] of [["Landscape", [800, 450]], ["Square", [800, 800]], ["Portrait", [800, 1067]]] as const) {
    await pick("Height", height);
    await choose(page, { name: "wide.jpg", mimeType: "image/jpeg", buffer: await photo("jpeg", 1200, 900) });
    const area = page.getByRole("dialog", { name: "Crop Your Profile Picture" }).getByTestId("crop-area");
    await expect(area).toBeVisible();
    const box = (await area.boundingBox())!;
    expect(box.width / box.height, height).toBeCloseTo(size[0] / size[1], 1);
    await cropAndSave(page);
    await expect(page.getByTestId("picture-layout-note")).toContainText("A full-width picture is cropped at its height");
    await publish(page);
    const pic = await publishedPicture(page, owner.username);
    expect([pic.w, pic.h], height).toEqual(size);
    expect(pic.width).toBeGreaterThan(200);
    ratios[height] = pic.height / pic.width;
  }
  expect(ratios.Portrait!).toBeGreaterThan(ratios.Square!);
  expect(ratios.Square!).toBeGreaterThan(ratios.Landscape!);
  expect(ratios.Square!).toBeCloseTo(1, 1);
  // Back to the icon layout: the square crop, not the full-width one.
  await pick("Layout", "Icon");
  await publish(page);
  const icon = await publishedPicture(page, owner.username);
  expect([icon.w, icon.h]).toEqual([400, 400]);

  // Initials, with their colour, shown uppercase.
  await pick("Style", "Initials");
  const initials = page.getByLabel("Initials text");
  await initials.fill("al");
  const saved = settingsSaved();
  await initials.press("Enter");
  await saved;
  await expect(initials).toHaveValue("AL");
  await initials.fill("abc");
  await expect(initials).toHaveValue("ab");
  await initials.fill("a1");
  await initials.press("Enter");
  await expect(page.getByText("Initials can be at most 2 letters")).toBeVisible();
  await initials.fill("AL");
  await initials.press("Enter");
  const colour = page.getByRole("textbox", { name: "Initials colour", exact: true });
  await colour.fill("green");
  await colour.press("Enter");
  await expect(page.getByText("Please enter a valid hex colour, like #3b82f6")).toBeVisible();
  const colourSaved = settingsSaved();
  await colour.fill("#0F766E");
  await colour.press("Enter");
  await colourSaved;
  await publish(page);
  const visitor = await page.context().newPage();
  await visitor.goto(`/${owner.username}`);
  await expect(visitor.locator("main img")).toHaveCount(0);
  const bubble = visitor.locator("main header").getByText("AL", { exact: true });
  await expect(bubble).toBeVisible();
  expect(await bubble.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(15, 118, 110)");

  // Hidden: no picture and no initials.
  await pick("Style", "Hidden");
  await publish(page);
  await visitor.reload();
  await expect(visitor.locator("main img")).toHaveCount(0);
  await expect(visitor.locator("main header").getByText("AL", { exact: true })).toHaveCount(0);
  await expect(visitor.getByRole("heading", { level: 1 })).toBeVisible();

  // Delete: the picture goes, the style returns to a picture (which falls back to initials).
  await page.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete Profile Picture" });
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(toast(page)).toContainText("Profile picture removed");
  await expect(page.getByTestId("current-picture")).toHaveCount(0);
  await expect(page.getByRole("group", { name: "Style" }).getByRole("radio", { name: "Picture" })).toBeChecked();
  await publish(page);
  await visitor.reload();
  await expect(visitor.locator("main img")).toHaveCount(0);
  await expect(visitor.locator("main header").getByText("AL", { exact: true })).toBeVisible();
});
