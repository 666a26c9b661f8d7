/**
 * A page published to a bucket, as a visitor meets it (ADR 129, 130): the bucket is a real
 * S3-protocol server hosting it as a website under its own host name (as a CDN or a bucket named
 * after the host would), and Chromium loads the page from there, with its links, its shared script
 * and the beacon it sends to the API.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateBucketCommand, PutBucketWebsiteCommand } from "@aws-sdk/client-s3";
import { newId } from "#db/ids.ts";
import { links, userProfiles } from "#db/schema.ts";
import { eq } from "drizzle-orm";
import { bucketTarget } from "#renderer/bucket-target.ts";
import { throughTarget } from "#renderer/publish-target.ts";
import { publishPage } from "#renderer/publish.ts";
import { startTestBucket, type TestBucket } from "#tests/support/s3.ts";
import { E2E } from "./env.ts";
import { createOwner, e2eDb, expect, test } from "./fixtures.ts";

/** A visitor's browser: headless Chromium names itself in its user agent and would count as a bot. */
const VISITOR_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36";

let s3: TestBucket;
let workDir: string;
test.beforeAll(async () => {
  s3 = await startTestBucket();
  workDir = mkdtempSync(join(tmpdir(), "plinth-bucket-pages-"));
});
test.afterAll(async () => {
  await s3.stop();
  rmSync(workDir, { recursive: true, force: true });
});

test.use({ userAgent: VISITOR_UA });

test("a visitor opens a page from the bucket and uses its links; its beacon reaches the API", async ({ page }) => {
  // The bucket is named after the host visitors use, and serves index.html for a page's address.
  const bucket = `pages-${Date.now().toString(36)}.localhost`;
  await s3.client.send(new CreateBucketCommand({ Bucket: bucket }));
  await s3.client.send(new PutBucketWebsiteCommand({ Bucket: bucket, WebsiteConfiguration: { IndexDocument: { Suffix: "index.html" } } }));
  const pagesOrigin = `http://${bucket}:${new URL(s3.endpoint).port}`;

  const owner = await createOwner({ plan: "plus" });
  const db = e2eDb();
  db.update(userProfiles).set({ displayName: "From the Bucket" }).where(eq(userProfiles.userId, owner.userId)).run();
  db.insert(links)
    .values([
      { id: newId(), userId: owner.userId, title: "My Shop", url: "https://shop.example/", orderIndex: 0 },
      { id: newId(), userId: owner.userId, title: "My Blog", url: "https://blog.example/", orderIndex: 1 },
    ])
    .run();
  const target = bucketTarget({ client: s3.client, bucket, prefix: "", publishedDir: join(workDir, "published") });
  const published = await throughTarget(target, (writer) =>
    publishPage(db, owner.userId, { publishedDir: join(workDir, "published"), origin: E2E.origin, apiOrigin: E2E.origin, pagesOrigin, now: new Date(), writer }),
  );
  expect(published.ok).toBe(true);

  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.route("https://shop.example/**", (r) => r.fulfill({ status: 200, contentType: "text/html", body: "<title>Shop</title>" }));
  const beacon = page.waitForRequest((r) => r.url() === `${E2E.origin}/api/visitor/track` && r.method() === "POST");

  const res = await page.goto(`${pagesOrigin}/${owner.username}`);
  expect(res!.headers()["content-type"]).toBe("text/html; charset=utf-8");
  await expect(page.getByRole("heading", { level: 1, name: "From the Bucket" })).toBeVisible();
  await expect(page.getByRole("link", { name: "My Blog" })).toHaveAttribute("href", "https://blog.example/");
  // The page names its own address on the bucket's host.
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${pagesOrigin}/${owner.username}`);
  expect(JSON.parse((await beacon).postData()!)).toMatchObject({ type: "page_view", username: owner.username });

  await page.getByRole("link", { name: "My Shop" }).click();
  await expect(page).toHaveURL("https://shop.example/");
  expect(errors).toEqual([]);
});
