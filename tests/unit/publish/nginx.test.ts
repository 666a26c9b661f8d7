/**
 * Any static host: PUBLISHED_DIR served by Debian's nginx with docs/nginx.conf shows a page, its
 * assets, its 404 page, and the page's visitor script is configured to call the API origin.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "#api/services/accounts.ts";
import { closeDatabase, openDatabase, type Db } from "#db/client.ts";
import { userProfiles } from "#db/schema.ts";
import { publishPage } from "#renderer/publish.ts";

const NGINX = "/usr/sbin/nginx";
const API_ORIGIN = "http://localhost:4321";
let dir: string;
let db: Db;
let nginx: ChildProcess | undefined;
let base: string;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const addr = s.address();
      s.close(() => resolve(typeof addr === "object" && addr ? addr.port : 0));
    });
  });
}

async function waitForServer(url: string): Promise<void> {
  const until = Date.now() + 15_000;
  for (;;) {
    try {
      await fetch(url);
      return;
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "plinth-nginx-"));
  // nginx's workers may run as an unprivileged user: they must be able to read the pages.
  chmodSync(dir, 0o755);
  db = openDatabase({ path: join(dir, "db.sqlite") });
  const published = join(dir, "published");
  const { userId } = createAccount(db, { email: "static@example.com", username: "statichost", passwordHash: null, emailVerified: true, now: new Date() });
  db.update(userProfiles).set({ displayName: "Served By Nginx" }).where(eq(userProfiles.userId, userId)).run();
  expect(publishPage(db, userId, { publishedDir: published, origin: API_ORIGIN, now: new Date() })).toMatchObject({ ok: true });
  writeFileSync(join(published, "404.html"), "<!doctype html><title>Page Not Found</title><h1>Page Not Found</h1>");
  const port = await freePort();
  const prefix = join(dir, "nginx");
  mkdirSync(join(prefix, "logs"), { recursive: true });
  const conf = readFileSync(join(import.meta.dirname, "../../../docs/nginx.conf"), "utf8")
    .replace(/__ROOT__/g, published)
    .replace(/__PORT__/g, `127.0.0.1:${port}`)
    .replace("http {", `http {\n  access_log off;\n  client_body_temp_path ${prefix}/tmp;\n  proxy_temp_path ${prefix}/tmp;\n  fastcgi_temp_path ${prefix}/tmp;\n  uwsgi_temp_path ${prefix}/tmp;\n  scgi_temp_path ${prefix}/tmp;`);
  writeFileSync(join(prefix, "nginx.conf"), `pid ${prefix}/nginx.pid;\nerror_log stderr;\ndaemon off;\n${conf}`);
  nginx = spawn(NGINX, ["-p", prefix, "-c", join(prefix, "nginx.conf"), "-e", "stderr"], { stdio: ["ignore", "ignore", "pipe"] });
  base = `http://127.0.0.1:${port}`;
  await waitForServer(base + "/");
}, 30_000);

afterAll(() => {
  if (nginx?.pid) nginx.kill("SIGTERM");
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

describe("published pages on nginx", () => {
  it("serves the page, its assets, robots/sitemap and the 404 page", async () => {
    const page = await fetch(`${base}/statichost`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain("Served By Nginx");

    const assets = [...html.matchAll(/(?:src|href)="(\/_p\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      const res = await fetch(base + asset);
      expect(res.status, asset).toBe(200);
      expect(res.headers.get("cache-control")).toContain("immutable");
    }
    expect((await fetch(`${base}/sitemap.xml`)).status).toBe(200);
    expect(await (await fetch(`${base}/robots.txt`)).text()).toContain("Sitemap:");

    const missing = await fetch(`${base}/nobodyhere`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("Page Not Found");
    expect((await fetch(`${base}/statichost/.tmp-abc`)).status).toBe(404);
  });

  it("configures the visitor script to call the API origin", async () => {
    const html = await (await fetch(`${base}/statichost`)).text();
    expect(html).toContain(API_ORIGIN);
  });
});
