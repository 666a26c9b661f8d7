/**
 * Profile picture uploads: real images of every allowed type are re-encoded to the crop size without
 * their metadata; lying types, decompression bombs, oversized and broken files are refused with a 4xx
 * and leave nothing stored; old pictures go once no page version uses them.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { crc32, deflateSync } from "node:zlib";
import { eq } from "drizzle-orm";
import sharp, { type Sharp } from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LIMITS } from "#core/limits.ts";
import { PICTURE_MESSAGES } from "#core/schemas/profile.ts";
import { uploads, userProfiles } from "#db/schema.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "#tests/support/app.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";

let t: TestApp;
let owner: ApiOwner;
beforeEach(() => {
  t = createTestApp();
  owner = createApiOwner(t, "trial");
});
afterEach(() => t.close());

/** A photo-like test image: a gradient with some shapes, so re-encoding has real work to do. */
async function photo(format: "jpeg" | "png" | "gif" | "webp", width = 1200, height = 900, extra?: (s: Sharp) => Sharp): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g"><stop offset="0" stop-color="#0ea5e9"/><stop offset="1" stop-color="#f97316"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#fff"/></svg>`;
  let s = sharp(Buffer.from(svg));
  if (extra) s = extra(s);
  return s.toFormat(format).toBuffer();
}

/** Uploads as an up-to-date tab: with the current picture revision unless `revision` says otherwise (null: none). */
async function upload(
  file: Uint8Array | string,
  opts: { name?: string; type?: string; shape?: string; height?: string; cookie?: string | null; field?: string; revision?: string | null } = {},
) {
  const form = new FormData();
  form.append(opts.field ?? "file", new Blob([file as BlobPart], { type: opts.type ?? "image/jpeg" }), opts.name ?? "picture.jpg");
  if (opts.shape) form.append("shape", opts.shape);
  if (opts.height) form.append("height", opts.height);
  const revision = opts.revision === undefined ? String(profile().pictureRevision) : opts.revision;
  if (revision !== null) form.append("revision", revision);
  const headers: Record<string, string> = { "Sec-Fetch-Site": "same-origin", Origin: TEST_ORIGIN };
  const cookie = opts.cookie === undefined ? owner.cookie : opts.cookie;
  if (cookie) headers.Cookie = cookie;
  const res = await t.app.request("/api/profile/picture", { method: "POST", headers, body: form });
  return { status: res.status, body: (await res.json()) as any };
}

const profile = () => t.deps.db.select().from(userProfiles).where(eq(userProfiles.userId, owner.userId)).get()!;
const uploadRows = () => t.deps.db.select().from(uploads).where(eq(uploads.userId, owner.userId)).all();
const mediaDir = () => join(t.deps.env.PUBLISHED_DIR, "media");
function mediaFiles(): string[] {
  if (!existsSync(mediaDir())) return [];
  return readdirSync(mediaDir(), { recursive: true }).map(String).filter((f) => /\.\w+$/.test(f));
}
const fileOf = (url: string) => join(t.deps.env.PUBLISHED_DIR, url);

function expectNothingStored() {
  expect(uploadRows()).toEqual([]);
  expect(mediaFiles()).toEqual([]);
  expect(profile().profilePictureUrl).toBeNull();
}

/** A PNG whose header claims width x height with a tiny compressed body: a decompression bomb. */
function pngBomb(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td) >>> 0);
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth 1
  ihdr[9] = 0; // greyscale
  // A few rows of zeros: deflate makes megabytes of them a few kilobytes.
  const rowBytes = 1 + Math.ceil(width / 8);
  const idat = deflateSync(Buffer.alloc(rowBytes * 64), { level: 9 });
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", idat), chunk("IEND", Buffer.alloc(0))]);
}

/** A GIF whose logical screen and single frame claim 65535 x 65535. */
function gifBomb(): Buffer {
  const header = Buffer.from("GIF89a", "ascii");
  const screen = Buffer.from([0xff, 0xff, 0xff, 0xff, 0x80, 0, 0]); // 65535 x 65535, 2-colour table
  const palette = Buffer.from([0, 0, 0, 255, 255, 255]);
  const image = Buffer.from([0x2c, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0]);
  const data = Buffer.from([0x02, 0x02, 0x44, 0x01, 0x00]);
  return Buffer.concat([header, screen, palette, image, data, Buffer.from([0x3b])]);
}

describe("POST /api/profile/picture: real images", () => {
  it("re-encodes a JPEG to a 400 px square JPEG without its EXIF/GPS, under a random hashed name", async () => {
    const jpeg = await photo("jpeg", 1200, 900, (s) =>
      s.withExif({ IFD0: { Make: "Secret Camera", Artist: "Ada" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 0/1" } }),
    );
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const r = await upload(jpeg);
    expect(r.status).toBe(201);
    expect(r.body.message).toBe(PICTURE_MESSAGES.uploaded);
    const url: string = r.body.profile.profilePictureUrl;
    expect(url).toMatch(/^\/media\/[0-9a-f]{2}\/[0-9a-f]{32}\.jpg$/);
    expect(r.body.profile.profilePictureStyle).toBe("icon");
    const stored = await sharp(fileOf(url)).metadata();
    expect([stored.format, stored.width, stored.height]).toEqual(["jpeg", 400, 400]);
    expect(stored.exif).toBeUndefined();
    expect(stored.icc).toBeUndefined();
    const bytes = await sharp(fileOf(url)).toBuffer();
    expect(bytes.includes(Buffer.from("Secret Camera"))).toBe(false);
    expect(uploadRows()).toMatchObject([{ kind: "profile_picture", contentType: "image/jpeg", storageKey: url.slice(1) }]);
    // Served by the site as a cacheable image.
    const served = await t.app.request(url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toMatch(/image\/jpeg/);
    // The same image uploaded twice gets two different names.
    const again = await upload(jpeg);
    expect(again.body.profile.profilePictureUrl).not.toBe(url);
  });

  it("accepts PNG (transparency flattened on white), GIF and WebP, and cuts 800 x 450 for full width", async () => {
    const png = await sharp({ create: { width: 500, height: 500, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png().toBuffer();
    const p = await upload(png, { name: "me.png", type: "image/png" });
    expect(p.status).toBe(201);
    const stats = await sharp(fileOf(p.body.profile.profilePictureUrl)).stats();
    expect(stats.channels[0]!.mean).toBeGreaterThan(250);
    const gif = await upload(await photo("gif", 300, 300), { name: "me.gif", type: "image/gif" });
    expect(gif.status).toBe(201);
    const webp = await upload(await photo("webp", 640, 480), { name: "me.webp", type: "image/webp", shape: "full_width" });
    expect(webp.status).toBe(201);
    expect(webp.body.profile.profilePictureStyle).toBe("full_width");
    const wide = await sharp(fileOf(webp.body.profile.profilePictureFullwidthUrl)).metadata();
    expect([wide.format, wide.width, wide.height]).toEqual(["jpeg", 800, 450]);
  });

  it("keeps a crop for each layout: a full-width picture is cut at its height's aspect and leaves the icon's square alone", async () => {
    const icon = await upload(await photo("jpeg", 1200, 900));
    expect(icon.status).toBe(201);
    const iconUrl = icon.body.profile.profilePictureUrl as string;
    const sizes: Record<string, [number | undefined, number | undefined]> = {};
    for (const height of ["portrait", "square", "landscape"]) {
      const r = await upload(await photo("jpeg", 1200, 900), { shape: "full_width", height });
      expect(r.status, height).toBe(201);
      expect(r.body.profile.profilePictureStyle).toBe("full_width");
      expect(r.body.profile.profilePictureFullwidthSubtype).toBe(height);
      // The icon's crop is still the square one, and still stored.
      expect(r.body.profile.profilePictureUrl).toBe(iconUrl);
      const meta = await sharp(fileOf(r.body.profile.profilePictureFullwidthUrl)).metadata();
      sizes[height] = [meta.width, meta.height];
    }
    expect(sizes).toEqual({ portrait: [800, 1067], square: [800, 800], landscape: [800, 450] });
    expect(await sharp(fileOf(iconUrl)).metadata()).toMatchObject({ width: 400, height: 400 });
    // An icon upload leaves the full-width crop alone in turn.
    const wideUrl = profile().profilePictureFullwidthUrl;
    const again = await upload(await photo("png", 300, 300), { name: "me.png", type: "image/png" });
    expect(again.body.profile.profilePictureFullwidthUrl).toBe(wideUrl);
    expect(again.body.profile.profilePictureStyle).toBe("icon");
    expect(existsSync(fileOf(wideUrl!))).toBe(true);
    // Deleting the picture clears both crops.
    const del = await owner.call("DELETE", `/api/profile/picture?revision=${profile().pictureRevision}`);
    expect(del.status).toBe(200);
    expect([profile().profilePictureUrl, profile().profilePictureFullwidthUrl]).toEqual([null, null]);
  });

  it("refuses an unknown full-width height with a 400 and stores nothing", async () => {
    for (const height of ["tall", "", "portrait<script>"]) {
      const r = await upload(await photo("jpeg"), { shape: "full_width", height: height || " " });
      expect(r.status, height).toBe(400);
      expect(r.body.error.fields.height).toBe("Please choose a picture height");
    }
    expectNothingStored();
  });

  it("trusts the bytes, not the declared type: a real PNG sent as image/jpeg named .gif is still a picture", async () => {
    const r = await upload(await photo("png", 400, 400), { name: "x.gif", type: "image/jpeg" });
    expect(r.status).toBe(201);
  });

  it("marks the draft as changed", async () => {
    await owner.call("POST", "/api/publish");
    await upload(await photo("jpeg"));
    const state = (await (await owner.call("GET", "/api/publish/state")).json()) as any;
    expect(state.hasUnpublishedChanges).toBe(true);
  });
});

describe("POST /api/profile/picture: refused, nothing stored", () => {
  it("refuses lying types: text, HTML, SVG and scripts dressed as images", async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script></svg>`;
    const cases: [string | Uint8Array, string, string][] = [
      ["just some notes, honestly", "notes.jpg", "image/jpeg"],
      [svg, "avatar.svg", "image/svg+xml"],
      [svg, "avatar.png", "image/png"],
      ["<!doctype html><script>alert(document.cookie)</script>", "x.gif", "image/gif"],
      ["GIF89a<script>alert(1)</script>", "polyglot.gif", "image/gif"],
      [Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from("<html><script>alert(1)</script></html>")]), "fake.jpg", "image/jpeg"],
      [Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]), "fake.png", "image/png"],
      [Buffer.from("RIFF\0\0\0\0WEBPnonsense"), "fake.webp", "image/webp"],
      [Buffer.from("%PDF-1.7\n"), "doc.jpg", "image/jpeg"],
      ["", "empty.jpg", "image/jpeg"],
    ];
    for (const [bytes, name, type] of cases) {
      const r = await upload(bytes, { name, type });
      expect(r.status, name).toBe(415);
      expect(r.body.error.message).toBe("Invalid file type");
      expect(r.body.error.details.description).toBe("Please select a valid image file (JPG, PNG, GIF)");
    }
    // A JPEG body behind a PNG signature, and a TIFF (which sharp could decode) are refused too.
    const jpeg = await photo("jpeg", 200, 200);
    const mixed = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), jpeg]);
    expect((await upload(mixed, { type: "image/png" })).status).toBe(415);
    expect((await upload(await photo("png", 50, 50).then((b) => sharp(b).tiff().toBuffer()), { name: "x.jpg" })).status).toBe(415);
    expectNothingStored();
  });

  it("refuses a truncated image", async () => {
    const jpeg = await photo("jpeg", 800, 800);
    const r = await upload(jpeg.subarray(0, Math.floor(jpeg.length / 2)));
    expect(r.status).toBe(415);
    expectNothingStored();
  });

  it("refuses decompression bombs by their pixel count, before decoding them", async () => {
    const png = pngBomb(30_000, 30_000);
    expect(png.length).toBeLessThan(LIMITS.IMAGE_MAX_BYTES);
    for (const [bytes, name] of [
      [png, "bomb.png"],
      [pngBomb(100_000, 300), "wide.png"],
      [gifBomb(), "bomb.gif"],
    ] as const) {
      const r = await upload(bytes, { name, type: "image/png" });
      expect([415, 422], name).toContain(r.status);
      expect(["Image too large", "Invalid file type"]).toContain(r.body.error.message);
    }
    expect((await upload(png, { type: "image/png" })).body.error.message).toBe("Image too large");
    expectNothingStored();
  });

  it("refuses files over 2 MB with docs/product.md's message (413), at the body limit and just over the file limit", async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 1);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    const r = await upload(big);
    expect(r.status).toBe(413);
    expect(r.body.error.message).toBe("File too large");
    expect(r.body.error.details.description).toBe("Please select an image smaller than 2MB");
    const justOver = Buffer.alloc(LIMITS.IMAGE_MAX_BYTES + 1, 1);
    justOver.set([0xff, 0xd8, 0xff, 0xe0]);
    const r2 = await upload(justOver);
    expect(r2.status).toBe(413);
    expect(r2.body.error.message).toBe("File too large");
    expectNothingStored();
  });

  it("needs a signed-in owner, with docs/product.md's message", async () => {
    const r = await upload(await photo("jpeg"), { cookie: null });
    expect(r.status).toBe(401);
    expect(r.body.error.message).toBe("You must be logged in to upload a profile picture");
    const forged = await upload(await photo("jpeg"), { cookie: "plinth_session=forged.token" });
    expect(forged.status).toBe(401);
    expectNothingStored();
  });

  it("refuses a request without a file, with two files, a wrong field, an unknown shape, or not multipart", async () => {
    const jpeg = await photo("jpeg", 100, 100);
    expect((await upload(jpeg, { field: "picture" })).status).toBe(400);
    expect((await upload(jpeg, { shape: "hexagon" })).status).toBe(400);
    const two = new FormData();
    two.append("file", new Blob([jpeg as BlobPart], { type: "image/jpeg" }), "a.jpg");
    two.append("file", new Blob([jpeg as BlobPart], { type: "image/jpeg" }), "b.jpg");
    two.append("revision", String(profile().pictureRevision));
    const headers = { "Sec-Fetch-Site": "same-origin", Origin: TEST_ORIGIN, Cookie: owner.cookie };
    expect((await t.app.request("/api/profile/picture", { method: "POST", headers, body: two })).status).toBe(400);
    const notForm = await t.app.request("/api/profile/picture", { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: "{}" });
    expect(notForm.status).toBe(400);
    const broken = await t.app.request("/api/profile/picture", { method: "POST", headers: { ...headers, "Content-Type": "multipart/form-data; boundary=x" }, body: "--x\r\nnonsense" });
    expect(broken.status).toBeGreaterThanOrEqual(400);
    expect(broken.status).toBeLessThan(500);
    const crossSite = await t.app.request("/api/profile/picture", {
      method: "POST",
      headers: { Cookie: owner.cookie, Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
      body: (() => {
        const f = new FormData();
        f.append("file", new Blob([jpeg as BlobPart], { type: "image/jpeg" }), "a.jpg");
        return f;
      })(),
    });
    expect(crossSite.status).toBe(403);
    expectNothingStored();
  });
});

describe("replacing and deleting pictures", () => {
  it("removes a replaced or deleted picture at once when no published version shows it", async () => {
    const a = (await upload(await photo("jpeg"))).body.profile.profilePictureUrl;
    const b = (await upload(await photo("png", 600, 600), { type: "image/png" })).body.profile.profilePictureUrl;
    expect(existsSync(fileOf(a))).toBe(false);
    expect(existsSync(fileOf(b))).toBe(true);
    expect(uploadRows().map((u) => `/${u.storageKey}`)).toEqual([b]);

    const del = await owner.edit("DELETE", "/api/profile/picture");
    expect(del.status).toBe(200);
    const body = (await del.json()) as any;
    expect(body.message).toBe(PICTURE_MESSAGES.removed);
    expect(body.profile).toMatchObject({ profilePictureUrl: null, profilePictureStyle: "icon", profilePictureIconSubtype: "rounded" });
    expect(existsSync(fileOf(b))).toBe(false);
    expectNothingStored();
  });

  it("keeps a picture the live page (or a version it can roll back to) shows, until nothing uses it", async () => {
    const live = (await upload(await photo("jpeg"))).body.profile.profilePictureUrl;
    expect((await owner.call("POST", "/api/publish")).status).toBe(200);
    const draft = (await upload(await photo("jpeg", 500, 500))).body.profile.profilePictureUrl;
    expect(existsSync(fileOf(live))).toBe(true);
    // The live page still shows its picture.
    const page = await (await t.app.request(`/${owner.username}`)).text();
    expect(page).toContain(live);
    expect((await t.app.request(live)).status).toBe(200);
    // Deleting the draft's picture removes that file, the published one stays.
    await owner.edit("DELETE", "/api/profile/picture");
    expect(existsSync(fileOf(draft))).toBe(false);
    expect(existsSync(fileOf(live))).toBe(true);
    // Discard brings the published picture back to the draft, file and all.
    expect((await owner.call("POST", "/api/publish/discard")).status).toBe(200);
    expect(profile().profilePictureUrl).toBe(live);
  });

  it("never touches another owner's pictures", async () => {
    const other = createApiOwner(t, "trial");
    const mine = (await upload(await photo("jpeg"))).body.profile.profilePictureUrl;
    expect((await other.edit("DELETE", "/api/profile/picture")).status).toBe(200);
    expect(existsSync(fileOf(mine))).toBe(true);
    expect(profile().profilePictureUrl).toBe(mine);
  });
});
