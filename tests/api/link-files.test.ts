/**
 * Files uploaded from the link dialog (ADR 067): a lead magnet's download and a link's thumbnail.
 * The bytes decide the type; lies, bombs, broken and oversized files are refused with a 4xx and
 * nothing stored; Lite owners meet the Plus gate; a link may only show its own owner's files; the
 * visitor who leaves an e-mail gets the whole address of an uploaded download.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { crc32 } from "node:zlib";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LEAD_FILE_MAX_BYTES, LINK_FILE_MESSAGES } from "#core/schemas/link-files.ts";
import { newId } from "#db/ids.ts";
import { links, uploads } from "#db/schema.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "#tests/support/app.ts";
import { readOutbox } from "#tests/support/mail.ts";
import { createApiOwner, type ApiOwner, type OwnerPlan } from "#tests/support/owner.ts";

let t: TestApp;
let owner: ApiOwner;
beforeEach(() => {
  t = createTestApp({ TRUST_PROXY: "1" });
  owner = createApiOwner(t, "trial");
});
afterEach(() => t.close());

async function upload(file: Uint8Array | string, opts: { kind?: string | null; type?: string; name?: string; who?: ApiOwner | null; headers?: Record<string, string> } = {}) {
  const form = new FormData();
  form.append("file", new Blob([file as BlobPart], { type: opts.type ?? "application/pdf" }), opts.name ?? "guide.pdf");
  if (opts.kind !== null) form.append("kind", opts.kind ?? "lead_magnet");
  const headers: Record<string, string> = { "Sec-Fetch-Site": "same-origin", Origin: TEST_ORIGIN, ...opts.headers };
  const who = opts.who === undefined ? owner : opts.who;
  if (who) headers.Cookie = who.cookie;
  const res = await t.app.request("/api/links/files", { method: "POST", headers, body: form });
  return { status: res.status, body: (await res.json()) as any };
}

const rowsOf = (userId = owner.userId) => t.deps.db.select().from(uploads).where(eq(uploads.userId, userId)).all();
const mediaDir = () => join(t.deps.env.PUBLISHED_DIR, "media");
const mediaFiles = () => (existsSync(mediaDir()) ? readdirSync(mediaDir(), { recursive: true }).map(String).filter((f) => /\.\w+$/.test(f)) : []);
const fileOf = (url: string) => join(t.deps.env.PUBLISHED_DIR, url);
const expectNothingStored = () => {
  expect(rowsOf()).toEqual([]);
  expect(mediaFiles()).toEqual([]);
};

const PDF = Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n");

/** A ZIP archive with stored (uncompressed) entries, the first one first: enough for a real unzip. */
function zip(entries: [string, string][]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of entries) {
    const data = Buffer.from(content);
    const n = Buffer.from(name);
    const crc = crc32(data) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(10, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(n.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(10, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(n.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, n, data);
    centrals.push(central, n);
    offset += 30 + n.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
const EPUB = zip([["mimetype", "application/epub+zip"], ["META-INF/container.xml", "<container/>"]]);
const ZIP = zip([["templates/readme.txt", "Hello"]]);
const MP3 = Buffer.concat([Buffer.from("ID3"), Buffer.from([4, 0, 0, 0, 0, 0, 0]), Buffer.alloc(64, 0xaa)]);

async function photo(format: "jpeg" | "png", withExif = false): Promise<Buffer> {
  let s = sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 14, g: 165, b: 233 } } });
  if (withExif) s = s.withExif({ IFD0: { Make: "Secret Camera" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 0/1" } });
  return s.toFormat(format).toBuffer();
}

const leadLink = (fileUrl: string, who = owner) => who.call("POST", "/api/links", { linkType: "lead_magnet", title: "Free guide", data: { description: "Ten tips", fileUrl } });

describe("lead-magnet downloads", () => {
  it("stores a PDF byte for byte under a random hashed .pdf name; the link, the published page and the visitor's e-mail use it", async () => {
    const r = await upload(PDF);
    expect(r.status).toBe(201);
    expect(r.body.message).toBe(LINK_FILE_MESSAGES.leadUploaded);
    expect(r.body.url).toMatch(/^\/media\/[0-9a-f]{2}\/[0-9a-f]{32}\.pdf$/);
    expect(readFileSync(fileOf(r.body.url)).equals(PDF)).toBe(true);
    expect(rowsOf()).toMatchObject([{ kind: "lead_magnet", contentType: "application/pdf", storageKey: r.body.url.slice(1), bytes: PDF.length }]);

    const served = await t.app.request(r.body.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("application/pdf");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");

    const saved = await leadLink(r.body.url);
    expect(saved.status).toBe(201);
    const linkId = ((await saved.json()) as any).link.id;
    expect((await owner.call("POST", "/api/publish")).status).toBe(200);

    const lead = await t.app.request("/api/visitor/lead", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "https://static.example", "Sec-Fetch-Site": "cross-site" },
      body: JSON.stringify({ linkId, email: "fan@example.com" }),
    });
    expect(lead.status).toBe(200);
    const whole = `${t.deps.env.PUBLIC_ORIGIN}${r.body.url}`;
    expect(await lead.json()).toEqual({ downloadUrl: whole });
    expect(readOutbox(t.deps.env.OUTBOX_DIR)).toMatchObject([{ to: "fan@example.com", text: expect.stringContaining(`\n${whole}\n`) }]);
  });

  it("keeps the name the file had on the owner's device, cleaned and never as a path, and the analytics table names the download by it", async () => {
    const names: [sent: string, kept: string | null][] = [
      ["guide.pdf", "guide.pdf"],
      ["../../etc/passwd.pdf", "passwd.pdf"],
      ["C:\\Users\\me\\Spring guide.pdf", "Spring guide.pdf"],
      ["..hidden.pdf", "hidden.pdf"],
      ["invoice\u202efdp.exe.pdf", "invoicefdp.exe.pdf"],
      ["  two   spaces\t.pdf ", "two spaces .pdf"],
      ["/", null],
      [`${"long ".repeat(40)}.pdf`, `${"long ".repeat(40)}`.slice(0, 115).trimEnd() + "….pdf"],
    ];
    const ids: string[] = [];
    for (const [i, [sent]] of names.entries()) {
      const r = await upload(Buffer.concat([PDF, Buffer.from(String(i))]), { name: sent });
      expect(r.status, sent).toBe(201);
      // The stored file's path is its hash, whatever the name said.
      expect(r.body.url, sent).toMatch(/^\/media\/[0-9a-f]{2}\/[0-9a-f]{32}\.pdf$/);
      expect(rowsOf().find((u) => `/${u.storageKey}` === r.body.url)?.originalName, sent).toBe(names[i]![1]);
      const saved = await owner.call("POST", "/api/links", { linkType: "lead_magnet", title: `Guide ${i}`, data: { description: "Free", fileUrl: r.body.url } });
      ids.push(((await saved.json()) as any).link.id);
    }
    // An upload from before names were kept: named by its type, never by its stored hash.
    const old = await upload(Buffer.concat([PDF, Buffer.from("old")]));
    t.deps.db.update(uploads).set({ originalName: null }).where(eq(uploads.storageKey, old.body.url.slice(1))).run();
    await owner.call("POST", "/api/links", { linkType: "lead_magnet", title: "Old guide", data: { description: "Free", fileUrl: old.body.url } });

    const now = Date.now();
    const report = (await (await owner.call("GET", `/api/analytics?from=${new Date(now - 86_400_000).toISOString()}&to=${new Date(now + 86_400_000).toISOString()}`)).json()) as any;
    const targets = Object.fromEntries(report.links.map((l: any) => [l.title, l.target]));
    expect(targets["Guide 0"]).toBe("Lead Magnet: guide.pdf");
    expect(targets["Guide 2"]).toBe("Lead Magnet: Spring guide.pdf");
    expect(targets["Guide 6"]).toBe("Lead Magnet");
    expect(targets["Old guide"]).toBe("Lead Magnet");
    for (const target of Object.values(targets)) expect(target).not.toMatch(/[0-9a-f]{32}|\/|\u202e/);
  });

  it("knows EPUB, ZIP and MP3 by their bytes, whatever the name and declared type say", async () => {
    const cases: [Buffer, string][] = [
      [EPUB, "epub"],
      [ZIP, "zip"],
      [MP3, "mp3"],
    ];
    for (const [bytes, ext] of cases) {
      const r = await upload(bytes, { type: "application/octet-stream", name: "download.bin" });
      expect(r.status, ext).toBe(201);
      expect(r.body.url).toMatch(new RegExp(`\\.${ext}$`));
    }
  });

  it("re-encodes an image download in its own format without its camera metadata", async () => {
    const jpeg = await photo("jpeg", true);
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const r = await upload(jpeg, { type: "image/jpeg", name: "poster.jpg" });
    expect(r.status).toBe(201);
    expect(r.body.url).toMatch(/\.jpg$/);
    const stored = await sharp(fileOf(r.body.url)).metadata();
    expect([stored.format, stored.width, stored.height]).toEqual(["jpeg", 640, 480]);
    expect(stored.exif).toBeUndefined();
  });

  it("refuses HTML, SVG, scripts, programs, empty files and broken archives dressed as downloads, storing nothing", async () => {
    const lies: [string, Uint8Array | string, string][] = [
      ["HTML named .pdf", "<html><script>alert(1)</script></html>", "application/pdf"],
      ["SVG", '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', "image/svg+xml"],
      ["script", "alert(document.cookie)", "text/javascript"],
      ["Windows program", Buffer.concat([Buffer.from("MZ"), Buffer.alloc(200)]), "application/pdf"],
      ["empty", "", "application/pdf"],
      ["PDF cut short", PDF.subarray(0, 30), "application/pdf"],
      ["ZIP cut short", ZIP.subarray(0, ZIP.length - 30), "application/zip"],
      ["PDF header on HTML", "%PDF-<html><script>alert(1)</script>", "application/pdf"],
    ];
    for (const [name, bytes, type] of lies) {
      const r = await upload(bytes, { type });
      expect(r.status, name).toBe(415);
      expect(r.body.error.message, name).toBe("Invalid file type");
      expect(r.body.error.details.description, name).toBe(LINK_FILE_MESSAGES.leadInvalidTypeText);
    }
    expectNothingStored();
  });

  it("refuses a file over 10 MB with the size message, at the limit accepted", async () => {
    const over = Buffer.concat([PDF.subarray(0, 9), Buffer.alloc(LEAD_FILE_MAX_BYTES + 1 - PDF.length, 0x20), PDF.subarray(9)]);
    const r = await upload(over);
    expect(r.status).toBe(413);
    expect(r.body.error.message).toBe("File too large");
    expect(r.body.error.details.description).toBe("Please select a file smaller than 10MB");
    expectNothingStored();
    const at = Buffer.concat([PDF.subarray(0, 9), Buffer.alloc(LEAD_FILE_MAX_BYTES - PDF.length, 0x20), PDF.subarray(9)]);
    expect(at.length).toBe(LEAD_FILE_MAX_BYTES);
    expect((await upload(at)).status).toBe(201);
  });
});

describe("thumbnails", () => {
  it("re-encodes an image to a 96 px square JPEG that a link can show on the published page", async () => {
    const r = await upload(await photo("png"), { kind: "thumbnail", type: "image/png", name: "logo.png" });
    expect(r.status).toBe(201);
    expect(r.body.message).toBe(LINK_FILE_MESSAGES.thumbnailUploaded);
    expect(r.body.url).toMatch(/^\/media\/[0-9a-f]{2}\/[0-9a-f]{32}\.jpg$/);
    const stored = await sharp(fileOf(r.body.url)).metadata();
    expect([stored.format, stored.width, stored.height]).toEqual(["jpeg", 96, 96]);
    const saved = await owner.call("POST", "/api/links", { linkType: "standard_url", title: "Shop", url: "https://shop.example", thumbnailUrl: r.body.url });
    expect(saved.status).toBe(201);
    expect((await owner.call("POST", "/api/publish")).status).toBe(200);
    const html = readFileSync(join(t.deps.env.PUBLISHED_DIR, owner.username, "index.html"), "utf8");
    expect(html).toContain(`src="${r.body.url}"`);
  });

  it("refuses anything but a decodable image, and images over 2 MB", async () => {
    for (const [bytes, type] of [
      [PDF, "application/pdf"],
      ['<svg xmlns="http://www.w3.org/2000/svg"/>', "image/svg+xml"],
      ["not an image", "image/png"],
      [Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100)]), "image/png"],
    ] as [Uint8Array | string, string][]) {
      const r = await upload(bytes, { kind: "thumbnail", type });
      expect(r.status).toBe(415);
      expect(r.body.error.details.description).toBe(LINK_FILE_MESSAGES.thumbnailInvalidTypeText);
    }
    const big = await upload(Buffer.alloc(2 * 1024 * 1024 + 1, 0xff), { kind: "thumbnail", type: "image/jpeg" });
    expect(big.status).toBe(413);
    expect(big.body.error.details.description).toBe("Please select an image smaller than 2MB");
    expectNothingStored();
  });
});

describe("who may upload, and what a link may point at", () => {
  it.each<[OwnerPlan, number]>([
    ["lite", 402],
    ["plus", 201],
  ])("a %s owner: %i", async (plan, status) => {
    const who = createApiOwner(t, plan);
    const lead = await upload(PDF, { who });
    const thumb = await upload(await photo("jpeg"), { who, kind: "thumbnail", type: "image/jpeg" });
    expect([lead.status, thumb.status]).toEqual([status, status]);
    if (status === 402) {
      expect(lead.body.error.details.feature).toBe("lead_magnet");
      expect(thumb.body.error.details.feature).toBe("thumbnails");
      expect(rowsOf(who.userId)).toEqual([]);
    }
  });

  it("needs a session, a same-site request, a file and a known kind", async () => {
    expect((await upload(PDF, { who: null })).status).toBe(401);
    expect((await upload(PDF, { headers: { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" } })).status).toBe(403);
    expect((await upload(PDF, { kind: null })).status).toBe(400);
    expect((await upload(PDF, { kind: "profile_picture" })).status).toBe(400);
    const noFile = await t.app.request("/api/links/files", { method: "POST", headers: { Cookie: owner.cookie, "Sec-Fetch-Site": "same-origin", Origin: TEST_ORIGIN, "Content-Type": "application/json" }, body: JSON.stringify({ kind: "lead_magnet", file: "x" }) });
    expect(noFile.status).toBeGreaterThanOrEqual(400);
    expect(noFile.status).toBeLessThan(500);
    expectNothingStored();
  });

  it("refuses a link pointing at another owner's file or at a media path nobody uploaded, changing nothing", async () => {
    const other = createApiOwner(t, "trial");
    const theirs = (await upload(PDF, { who: other })).body.url as string;
    const r = await leadLink(theirs);
    expect(r.status).toBe(400);
    expect(((await r.json()) as any).error.fields["data.fileUrl"]).toBe("Please upload the file again");
    expect((await leadLink("/media/ab/abababababababababababababababab.pdf")).status).toBe(400);
    for (const bad of ["/media/../users.db", "/media/ab/x.html", "javascript:alert(1)", "data:text/html,<script>alert(1)</script>"]) {
      expect((await leadLink(bad)).status, bad).toBe(400);
    }
    const thumb = await owner.call("POST", "/api/links", { linkType: "standard_url", title: "Shop", url: "https://shop.example", thumbnailUrl: theirs });
    expect(thumb.status).toBe(400);
    expect(t.deps.db.select().from(links).where(eq(links.userId, owner.userId)).all()).toEqual([]);
    // Editing a link to point at another owner's file is refused the same way.
    const mine = (await upload(PDF)).body.url as string;
    const id = ((await (await leadLink(mine)).json()) as any).link.id;
    const edit = await owner.edit("PATCH", `/api/links/${id}`, { linkType: "lead_magnet", title: "Free guide", data: { description: "Ten tips", fileUrl: theirs } });
    expect(edit.status).toBe(400);
    expect(t.deps.db.select().from(links).where(eq(links.id, id)).get()!.linkSpecificData.fileUrl).toBe(mine);
  });

  it("removes an upload nothing has used for a day at the next upload; keeps files a link or a version uses", async () => {
    // An abandoned upload from two days ago (the dialog was closed without saving).
    const key = "media/cd/cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.pdf";
    mkdirSync(dirname(fileOf(`/${key}`)), { recursive: true });
    writeFileSync(fileOf(`/${key}`), PDF);
    t.deps.db.insert(uploads).values({ id: newId(), userId: owner.userId, kind: "lead_magnet", storageKey: key, contentType: "application/pdf", bytes: PDF.length, createdAt: new Date(Date.now() - 2 * 86_400_000) }).run();
    // A file a published link uses, then the link deleted from the draft: the version still shows it.
    const used = (await upload(PDF)).body.url as string;
    const id = ((await (await leadLink(used)).json()) as any).link.id;
    expect((await owner.call("POST", "/api/publish")).status).toBe(200);
    expect((await owner.edit("DELETE", `/api/links/${id}`)).status).toBe(200);
    // A fresh upload not saved yet (its dialog is still open).
    const fresh = (await upload(EPUB, { type: "application/epub+zip" })).body.url as string;

    expect(existsSync(fileOf(`/${key}`))).toBe(false);
    expect(rowsOf().map((r) => `/${r.storageKey}`).sort()).toEqual([used, fresh].sort());
    expect(existsSync(fileOf(used))).toBe(true);
    expect(existsSync(fileOf(fresh))).toBe(true);
  });

  it("limits how fast one owner can upload", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await upload(PDF)).status);
    expect(statuses.slice(0, 30).every((s) => s === 201)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
