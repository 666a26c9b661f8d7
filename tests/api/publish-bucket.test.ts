/**
 * Publishing to an S3-compatible bucket (ADR 129, 130), against a real S3-protocol server: after each
 * flow (publish, discard, rollback, suspension and restore) the objects are read back with the S3
 * client, their headers and bodies checked, and the local folder holds no page.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { eq } from "drizzle-orm";
import { CreateBucketCommand, DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from "@aws-sdk/client-s3";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { newId } from "#db/ids.ts";
import { jobs, links, pageVersions, uploads, userProfiles } from "#db/schema.ts";
import { DASH } from "#core/dashboard-texts.ts";
import { IMMUTABLE, REVALIDATE } from "#renderer/content-types.ts";
import { qrFileName } from "#renderer/components/vcard.ts";
import { UNAVAILABLE_HTML } from "#renderer/suspension.ts";
import { runPageBoundary } from "#api/jobs/page-schedule.ts";
import { jobsFor } from "#api/jobs/runner.ts";
import { runTargetCleanup } from "#api/jobs/target-cleanup.ts";
import { createApiAdmin } from "#tests/support/admin.ts";
import { browser } from "#tests/support/auth-client.ts";
import { lastMailTo, sixDigitCode } from "#tests/support/mail.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "#tests/support/app.ts";
import { createApiOwner, type ApiOwner } from "#tests/support/owner.ts";
import { startTestBucket, type TestBucket } from "#tests/support/s3.ts";

let bucket: TestBucket;
beforeAll(async () => {
  bucket = await startTestBucket();
});
afterAll(() => bucket.stop());

let t: TestApp;
let owner: ApiOwner;
/** Each test under a prefix of its own, so tests share the server and not their objects. */
let prefix: string;
let run = 0;
beforeEach(() => {
  prefix = `site-${++run}/`;
  t = createTestApp(bucket.env(prefix));
  owner = createApiOwner(t, "trial");
});
afterEach(() => t.close());

const setName = (displayName: string) => t.deps.db.update(userProfiles).set({ displayName }).where(eq(userProfiles.userId, owner.userId)).run();
const addContactCard = () =>
  t.deps.db
    .insert(links)
    .values({ id: newId(), userId: owner.userId, title: "Card", url: "#", linkType: "vcf", linkSpecificData: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" }, orderIndex: 1 })
    .run();
const pageKey = () => `${prefix}${owner.username}/index.html`;
const page = async () => (await bucket.object(pageKey()))!.body.toString("utf8");
/** The page's own keys, without the prefix and the username. */
const ownNames = async () => (await bucket.keys(`${prefix}${owner.username}/`)).map((k) => k.slice(`${prefix}${owner.username}/`.length));

describe("publishing to a bucket", () => {
  it("puts the page and its own files under the prefix, each with its type and caching, and writes no page to the folder", async () => {
    setName("Ada in the bucket");
    addContactCard();
    const res = await owner.call("POST", "/api/publish");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ version: 1, changed: true });

    const names = await ownNames();
    expect(names).toContain("index.html");
    const qr = names.find((n) => /^qr-[0-9a-z]+\.svg$/.test(n));
    const card = names.find((n) => /^contact-[0-9a-z]+\.vcf$/.test(n));
    expect(qr && card).toBeTruthy();
    expect(names).toHaveLength(3);

    const html = (await bucket.object(pageKey()))!;
    expect(html).toMatchObject({ contentType: "text/html; charset=utf-8", cacheControl: REVALIDATE, contentEncoding: undefined });
    expect(html.body.toString("utf8")).toContain("Ada in the bucket");
    expect(html.body.toString("utf8")).toContain(qr);
    const svg = (await bucket.object(`${prefix}${owner.username}/${qr}`))!;
    expect(svg).toMatchObject({ contentType: "image/svg+xml", cacheControl: IMMUTABLE, contentEncoding: undefined });
    expect(svg.body.toString("utf8")).toMatch(/^<svg /);
    const vcf = (await bucket.object(`${prefix}${owner.username}/${card}`))!;
    expect(vcf).toMatchObject({ contentType: "text/vcard; charset=utf-8", cacheControl: IMMUTABLE });
    expect(vcf.body.toString("utf8")).toContain("BEGIN:VCARD");

    expect(existsSync(join(t.deps.env.PUBLISHED_DIR, owner.username))).toBe(false);
  });

  it("puts the shared assets the page names, with their compressed copies, before the page", async () => {
    await owner.call("POST", "/api/publish");
    const src = /<script[^>]+src="\/(_p\/visitor\.[0-9a-f]+\.js)"/.exec(await page())?.[1];
    expect(src).toBeDefined();
    const script = (await bucket.object(prefix + src))!;
    expect(script).toMatchObject({ contentType: "text/javascript; charset=utf-8", cacheControl: IMMUTABLE, contentEncoding: undefined });
    expect(script.body.equals(readFileSync(join(t.deps.env.PUBLISHED_DIR, src!)))).toBe(true);
    const br = (await bucket.object(`${prefix}${src}.br`))!;
    expect(br).toMatchObject({ contentType: "text/javascript; charset=utf-8", cacheControl: IMMUTABLE, contentEncoding: "br" });
    expect(brotliDecompressSync(br.body).equals(script.body)).toBe(true);
    const fonts = await bucket.keys(`${prefix}_p/fonts/`);
    expect(fonts.length).toBeGreaterThan(0);
    expect(fonts.every((k) => k.endsWith(".woff2"))).toBe(true);
  });

  it("replaces the page object with each new version, and puts it again on a publish of an unchanged draft", async () => {
    setName("First name");
    await owner.call("POST", "/api/publish");
    setName("Second name");
    expect(await (await owner.call("POST", "/api/publish")).json()).toEqual({ version: 2, changed: true });
    expect(await page()).toContain("Second name");
    expect(await page()).not.toContain("First name");

    // A page object lost after its version was recorded (a put that failed, an operator's mistake)
    // comes back with the next publish, though nothing changed.
    await bucket.client.send(new DeleteObjectCommand({ Bucket: bucket.bucket, Key: pageKey() }));
    expect(await bucket.object(pageKey())).toBeNull();
    expect(await (await owner.call("POST", "/api/publish")).json()).toEqual({ version: 2, changed: false });
    expect(await page()).toContain("Second name");
  });

  it("leaves the live page as it is on a discard", async () => {
    setName("Live name");
    await owner.call("POST", "/api/publish");
    const live = await page();
    setName("Draft name");
    expect((await owner.call("POST", "/api/publish/discard")).status).toBe(200);
    expect(await page()).toBe(live);
  });

  it("puts the version rolled back to", async () => {
    setName("Version one");
    await owner.call("POST", "/api/publish");
    setName("Version two");
    await owner.call("POST", "/api/publish");
    const res = await owner.call("POST", "/api/publish/rollback", { version: 1 });
    expect(await res.json()).toEqual({ version: 3, changed: true });
    expect(await page()).toContain("Version one");
    expect(await page()).not.toContain("Version two");
  });

  it("puts the unavailable page for a suspension and deletes the page's own files; a restore puts the page back", async () => {
    setName("Soon suspended");
    addContactCard();
    await owner.call("POST", "/api/publish");
    const admin = createApiAdmin(t);
    expect((await admin.call("POST", `/api/admin/pages/${owner.userId}/suspend`, { reason: "Phishing links" })).status).toBe(200);
    const unavailable = (await bucket.object(pageKey()))!;
    expect(unavailable).toMatchObject({ contentType: "text/html; charset=utf-8", cacheControl: REVALIDATE });
    expect(unavailable.body.toString("utf8")).toBe(UNAVAILABLE_HTML);
    expect(await ownNames()).toEqual(["index.html"]);

    expect((await admin.call("POST", `/api/admin/pages/${owner.userId}/restore`, { note: "Appeal accepted" })).status).toBe(200);
    expect(await page()).toContain("Soon suspended");
    expect(await ownNames()).toHaveLength(3);
  });

  it("takes a never-published page's unavailable page away again on a restore", async () => {
    const admin = createApiAdmin(t);
    expect((await admin.call("POST", `/api/admin/pages/${owner.userId}/suspend`, { reason: "Spam" })).status).toBe(200);
    expect((await page())).toBe(UNAVAILABLE_HTML);
    expect((await admin.call("POST", `/api/admin/pages/${owner.userId}/restore`, { note: "Mistake" })).status).toBe(200);
    expect(await ownNames()).toEqual([]);
  });

  it("answers 503 with the publish failure text when the bucket refuses the page, and the next publish puts it", async () => {
    t.close();
    t = createTestApp({ ...bucket.env(prefix), S3_BUCKET: `missing-${run}` });
    owner = createApiOwner(t, "trial");
    setName("Waiting for its bucket");
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const res = await owner.call("POST", "/api/publish");
    expect(res.status).toBe(503);
    expect((await res.json()).error).toMatchObject({ code: "unavailable", message: DASH.publishFailed, details: { description: DASH.publishFailedText } });
    expect(logged).toHaveBeenCalledWith("Publish target refused the writes", expect.stringMatching(/"method":"POST".*NoSuchBucket/));
    logged.mockRestore();
    // The version was recorded; the bucket lags until the next publish (ADR 129).
    expect(t.deps.db.select().from(pageVersions).where(eq(pageVersions.userId, owner.userId)).all()).toHaveLength(1);

    await bucket.client.send(new CreateBucketCommand({ Bucket: `missing-${run}` }));
    expect(await (await owner.call("POST", "/api/publish")).json()).toEqual({ version: 1, changed: false });
    const put = await bucket.client.send(new GetObjectCommand({ Bucket: `missing-${run}`, Key: pageKey() }));
    expect(await put.Body!.transformToString()).toContain("Waiting for its bucket");
    // The sitemap the first publish could not put comes with the page.
    const sitemap = await bucket.client.send(new GetObjectCommand({ Bucket: `missing-${run}`, Key: `${prefix}sitemap.xml` }));
    expect(await sitemap.Body!.transformToString()).toContain(`/${owner.username}</loc>`);
  });

  it("deletes every object of the page when its owner deletes the account, and no other owner's", async () => {
    addContactCard();
    await owner.call("POST", "/api/publish");
    const other = createApiOwner(t, "trial");
    await other.call("POST", "/api/publish");
    const othersKeys = await bucket.keys(`${prefix}${other.username}/`);
    expect(othersKeys.length).toBe(2);
    expect(await ownNames()).toHaveLength(3);

    const res = await owner.call("DELETE", "/api/auth/account", { confirmUsername: owner.username });
    expect(res.status).toBe(200);
    expect(await ownNames()).toEqual([]);
    expect(await bucket.keys(`${prefix}${other.username}/`)).toEqual(othersKeys);
  });
});

describe("the page's own address with a bucket target", () => {
  const pageAddress = () => `https://pages.plinth.test/${owner.username}`;

  it("is PUBLIC_PAGES_ORIGIN in the canonical, Open Graph, structured data, share and QR code addresses; the product's links stay on PUBLIC_ORIGIN", async () => {
    await owner.call("POST", "/api/publish");
    const html = await page();
    expect(html).toContain(`<link rel="canonical" href="${pageAddress()}">`);
    expect(html).toContain(`<meta property="og:url" content="${pageAddress()}">`);
    expect(html).toContain(`"@type":"ProfilePage","url":"${pageAddress()}"`);
    expect(html).toContain(`"url":"${pageAddress()}","title"`);
    // The QR code's file is named by the address it encodes.
    expect(await ownNames()).toEqual(["index.html", qrFileName(pageAddress())].sort());
    expect(html).toContain(`/${owner.username}/${qrFileName(pageAddress())}`);
    expect(html).not.toContain(`${TEST_ORIGIN}/${owner.username}`);
    // The visitor script still calls the API, and the privacy link still opens the product's page.
    expect(html).toContain(`"apiOrigin":"${TEST_ORIGIN}"`);
    expect(html).toContain(`href="${TEST_ORIGIN}/privacy"`);
  });

  it("is the same in the owner's preview and after a re-render", async () => {
    await owner.call("POST", "/api/publish");
    const preview = await t.app.request(`/${owner.username}/preview`, { headers: { Cookie: owner.cookie } });
    expect(preview.status).toBe(200);
    expect(await preview.text()).toContain(`<link rel="canonical" href="${pageAddress()}">`);
    await bucket.client.send(new DeleteObjectCommand({ Bucket: bucket.bucket, Key: pageKey() }));
    await runPageBoundary(t.deps, { userId: owner.userId, at: Date.now() });
    expect(await page()).toContain(`<link rel="canonical" href="${pageAddress()}">`);
  });
});

describe("an account deleted while the bucket refuses", () => {
  it("is deleted at once, and the bucket's copies go on a later attempt of the queued cleanup", async () => {
    t.close();
    const name = `later-${run}`;
    t = createTestApp({ ...bucket.env(prefix), S3_BUCKET: name });
    let clock = Date.now();
    t.deps.now = () => new Date(clock);
    owner = createApiOwner(t, "trial");
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const res = await owner.call("DELETE", "/api/auth/account", { confirmUsername: owner.username });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: true });
    const [job] = t.deps.db.select().from(jobs).where(eq(jobs.kind, "target-cleanup")).all();
    expect(job).toMatchObject({ state: "pending", attempts: 1, payload: { username: owner.username, media: [] } });
    expect(job!.lastError).toContain("NoSuchBucket");

    // What the bucket held of the page by then, and the bucket back.
    await bucket.client.send(new CreateBucketCommand({ Bucket: name }));
    for (const key of [`${owner.username}/index.html`, `${owner.username}/qr-abc123.svg`]) {
      await bucket.client.send(new PutObjectCommand({ Bucket: name, Key: prefix + key, Body: "old" }));
    }
    // Not before its backoff is over.
    expect(await jobsFor(t.deps).tick()).toEqual({ done: 0, retried: 0, failed: 0 });
    clock += 60 * 60_000;
    expect(await jobsFor(t.deps).tick()).toMatchObject({ done: 1 });
    logged.mockRestore();
    expect(t.deps.db.select().from(jobs).where(eq(jobs.kind, "target-cleanup")).all()).toEqual([]);
    const left = await bucket.client.send(new ListObjectsV2Command({ Bucket: name, Prefix: prefix }));
    expect((left.Contents ?? []).map((o) => o.Key!.slice(prefix.length)).sort()).toEqual(["robots.txt", "robots.txt.br", "robots.txt.gz", "sitemap.xml", "sitemap.xml.br", "sitemap.xml.gz"]);
  });

  it("leaves a name claimed again to its new owner's page", async () => {
    await owner.call("POST", "/api/publish");
    const keys = await bucket.keys(`${prefix}${owner.username}/`);
    expect(keys.length).toBeGreaterThan(0);
    // The name is someone's again when the cleanup of its old owner runs.
    await runTargetCleanup(t.deps, { username: owner.username, media: [] });
    expect(await bucket.keys(`${prefix}${owner.username}/`)).toEqual(keys);
  });
});

describe("pages written outside the publish button", () => {
  it("puts the initial page at signup", async () => {
    const b = browser(t);
    const who = { username: `new_bucket_${run}`, email: `new_bucket_${run}@example.com` };
    expect((await b.json("POST", "/api/auth/signup/start", who)).status).toBe(200);
    expect((await b.json("POST", "/api/auth/signup/verify", { code: sixDigitCode(lastMailTo(t.deps.env.OUTBOX_DIR, who.email)!) })).status).toBe(200);
    const password = "Sturdy-Password-42";
    expect((await b.json("POST", "/api/auth/signup/complete", { password, confirmPassword: password, plan: "lite", agreedToTerms: true })).status).toBe(201);
    const initial = (await bucket.object(`${prefix}${who.username}/index.html`))!;
    expect(initial.contentType).toBe("text/html; charset=utf-8");
    expect(existsSync(join(t.deps.env.PUBLISHED_DIR, who.username))).toBe(false);
  });

  it("puts the page again at a schedule boundary", async () => {
    setName("Rendered again");
    await owner.call("POST", "/api/publish");
    await bucket.client.send(new DeleteObjectCommand({ Bucket: bucket.bucket, Key: pageKey() }));
    await runPageBoundary(t.deps, { userId: owner.userId, at: Date.now() });
    expect(await page()).toContain("Rendered again");
  });
});

describe("the server's own page URLs with a bucket target", () => {
  const get = (path: string) => t.app.request(path, { redirect: "manual" });

  it("redirect a page and its files to PUBLIC_PAGES_ORIGIN, the query kept", async () => {
    await owner.call("POST", "/api/publish");
    const res = await get(`/${owner.username}?utm_source=flyer`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`https://pages.plinth.test/${owner.username}?utm_source=flyer`);
    const upper = await get(`/${owner.username.toUpperCase()}`);
    expect(upper.status).toBe(301);
    expect(upper.headers.get("location")).toBe(`/${owner.username}`);
    const qr = await get(`/${owner.username}/qr-abc123.svg`);
    expect(qr.status).toBe(302);
    expect(qr.headers.get("location")).toBe(`https://pages.plinth.test/${owner.username}/qr-abc123.svg`);
  });

  it("leave reserved names, odd paths and suspended pages to the server", async () => {
    expect((await get("/pricing")).status).toBe(404);
    expect((await get("/a")).status).toBe(404);
    expect((await get("//evil.example")).headers.get("location")).toBeNull();
    const admin = createApiAdmin(t);
    expect((await admin.call("POST", `/api/admin/pages/${owner.userId}/suspend`, { reason: "Spam" })).status).toBe(200);
    const res = await get(`/${owner.username}`);
    expect(res.status).toBe(410);
    expect(await res.text()).toContain("This page is unavailable");
  });
});


describe("what visitors read beside the pages, in the bucket", () => {
  const sitemap = async () => (await bucket.object(`${prefix}sitemap.xml`))?.body.toString("utf8") ?? null;
  /** A picture upload from an up-to-date tab, as the Profile Picture screen sends it. */
  const uploadPicture = async () => {
    const form = new FormData();
    const jpeg = await sharp({ create: { width: 600, height: 600, channels: 3, background: "#3366aa" } }).jpeg().toBuffer();
    form.append("file", new Blob([jpeg as BlobPart], { type: "image/jpeg" }), "me.jpg");
    form.append("revision", String(t.deps.db.select().from(userProfiles).where(eq(userProfiles.userId, owner.userId)).get()!.pictureRevision));
    return t.app.request("/api/profile/picture", { method: "POST", headers: { Cookie: owner.cookie, "Sec-Fetch-Site": "same-origin", Origin: TEST_ORIGIN }, body: form });
  };
  const mediaKeys = async () => (await bucket.keys(`${prefix}media/`)).map((k) => k.slice(prefix.length));

  it("puts sitemap.xml and robots.txt with their compressed copies, and the sitemap again as pages come and go", async () => {
    await owner.call("POST", "/api/publish");
    // Both name the pages where visitors reach them: the bucket's CDN.
    expect(await sitemap()).toContain(`<loc>https://pages.plinth.test/${owner.username}</loc>`);
    expect((await bucket.object(`${prefix}robots.txt`))!.body.toString("utf8")).toContain("Sitemap: https://pages.plinth.test/sitemap.xml");
    expect(await bucket.object(`${prefix}sitemap.xml`)).toMatchObject({ contentType: "application/xml; charset=utf-8", cacheControl: REVALIDATE, contentEncoding: undefined });
    expect(await bucket.object(`${prefix}robots.txt`)).toMatchObject({ contentType: "text/plain; charset=utf-8", cacheControl: REVALIDATE });
    const br = (await bucket.object(`${prefix}sitemap.xml.br`))!;
    expect(br.contentEncoding).toBe("br");
    expect(brotliDecompressSync(br.body).toString("utf8")).toBe(await sitemap());

    const other = createApiOwner(t, "trial");
    await other.call("POST", "/api/publish");
    expect(await sitemap()).toContain(`/${other.username}</loc>`);
    const admin = createApiAdmin(t);
    expect((await admin.call("POST", `/api/admin/pages/${other.userId}/suspend`, { reason: "Spam" })).status).toBe(200);
    expect(await sitemap()).not.toContain(`/${other.username}</loc>`);
    expect((await owner.call("DELETE", "/api/auth/account", { confirmUsername: owner.username })).status).toBe(200);
    expect(await sitemap()).not.toContain(`/${owner.username}</loc>`);
  });

  it("puts an uploaded picture as an immutable object, and deletes it when nothing shows it any more", async () => {
    const res = await uploadPicture();
    expect(res.status).toBe(201);
    const [key] = await mediaKeys();
    expect(key).toMatch(/^media\/[0-9a-f]{2}\/[0-9a-f]{32}\.jpg$/);
    const object = (await bucket.object(prefix + key))!;
    expect(object).toMatchObject({ contentType: "image/jpeg", cacheControl: IMMUTABLE });
    expect(object.body.equals(readFileSync(join(t.deps.env.PUBLISHED_DIR, key!)))).toBe(true);

    // Never published, the picture goes from the bucket and the folder once it is deleted.
    expect((await owner.edit("DELETE", "/api/profile/picture")).status).toBe(200);
    expect(await mediaKeys()).toEqual([]);
    expect(existsSync(join(t.deps.env.PUBLISHED_DIR, key!))).toBe(false);
  });

  it("deletes the owner's uploads from the bucket with the account", async () => {
    expect((await uploadPicture()).status).toBe(201);
    await owner.call("POST", "/api/publish");
    expect(await mediaKeys()).toHaveLength(1);
    expect((await owner.call("DELETE", "/api/auth/account", { confirmUsername: owner.username })).status).toBe(200);
    expect(await mediaKeys()).toEqual([]);
  });

  it("stores a picture the bucket refuses nowhere, and says the upload failed", async () => {
    t.close();
    t = createTestApp({ ...bucket.env(prefix), S3_BUCKET: `refusing-${run}` });
    owner = createApiOwner(t, "trial");
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const res = await uploadPicture();
    logged.mockRestore();
    expect(res.status).toBe(503);
    expect((await res.json()).error).toMatchObject({ code: "unavailable", message: "Failed to upload profile picture" });
    const media = join(t.deps.env.PUBLISHED_DIR, "media");
    expect(existsSync(media) ? readdirSync(media, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()) : []).toEqual([]);
    expect(t.deps.db.select().from(uploads).where(eq(uploads.userId, owner.userId)).all()).toEqual([]);
    expect(t.deps.db.select().from(userProfiles).where(eq(userProfiles.userId, owner.userId)).get()!.profilePictureUrl).toBeNull();
  });
});
