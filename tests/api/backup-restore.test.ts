/**
 * npm run backup and npm run restore as an operator runs them, against a real server process: a
 * backup taken while owners keep writing through the API holds every write acknowledged before it
 * began; restored into empty folders, every page is re-rendered as its owner published it and every
 * picture is back byte for byte; restore refuses a target a server runs on, and a damaged archive.
 */
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession, SESSION_COOKIE } from "#api/auth/session.ts";
import { createAccount } from "#api/services/accounts.ts";
import { closeDatabase, openDatabase } from "#db/client.ts";
import { freePort } from "#tests/support/nginx.ts";
import { notACopy, served, treeOf, type Folders } from "#tests/support/backup.ts";
import { npmRun } from "#tests/support/npm-run.ts";
import { serverBundle } from "#tests/support/node-bundle.ts";

const ROOT = join(import.meta.dirname, "../..");
const dir = mkdtempSync(join(tmpdir(), "plinth-backup-"));
const live: Folders = { data: join(dir, "live", "data"), published: join(dir, "live", "published") };
const restored: Folders = { data: join(dir, "restored", "data"), published: join(dir, "restored", "published") };
const archive = join(dir, "backups", "nightly.tar.gz");
let origin = "";
let port = 0;

interface Owner {
  userId: string;
  username: string;
  cookie: string;
}

function envFor(folders: Folders): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "test",
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_ORIGIN: origin,
    DATA_DIR: folders.data,
    PUBLISHED_DIR: folders.published,
    SITE_DIR: join(dir, "no-site"),
    LOG_REQUESTS: "0",
  };
}

/** api/server.ts on the folders; resolves once it listens. */
async function startServer(folders: Folders): Promise<{ stop(): Promise<void> }> {
  const child = spawn(process.execPath, [await serverBundle()], { cwd: ROOT, env: envFor(folders), stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += String(d)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (d) => {
      stdout += String(d);
      if (stdout.includes("Plinth is listening")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`the server exited with ${code}: ${stderr}`)));
  });
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

function call(owner: Owner, method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { Cookie: owner.cookie, Origin: origin, "Sec-Fetch-Site": "same-origin" };
  if (body !== undefined && !(body instanceof FormData)) headers["Content-Type"] = "application/json";
  const payload = body === undefined || body instanceof FormData ? body : JSON.stringify(body);
  return fetch(`${origin}${path}`, { method, headers, body: payload });
}

/** The bytes of every picture the server stored, by media key, read as soon as it was stored. */
const stored = new Map<string, Buffer>();

async function photo(seed: number): Promise<Blob> {
  const background = { r: (seed * 37) % 256, g: (seed * 91) % 256, b: 180 };
  const jpeg = await sharp({ create: { width: 320, height: 320, channels: 3, background } }).jpeg().toBuffer();
  return new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" });
}

/** The profile sections' revisions, which an up-to-date dashboard tab bases its edits on (ADR 068). */
async function revisions(owner: Owner): Promise<{ text: number; picture: number }> {
  return ((await (await call(owner, "GET", "/api/profile")).json()) as { revisions: { text: number; picture: number } }).revisions;
}

async function uploadPicture(owner: Owner, seed: number): Promise<string> {
  const form = new FormData();
  form.append("file", await photo(seed), "me.jpg");
  form.append("revision", String((await revisions(owner)).picture));
  const res = await call(owner, "POST", "/api/profile/picture", form);
  expect(res.status).toBe(201);
  const url = ((await res.json()) as { profile: { profilePictureUrl: string } }).profile.profilePictureUrl;
  stored.set(url.slice(1), readFileSync(join(live.published, url)));
  return url;
}

async function addLink(owner: Owner, title: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await call(owner, "POST", "/api/links", { linkType: "standard_url", title, url: `https://example.org/${encodeURIComponent(title)}`, ...extra });
  expect(res.status).toBe(201);
  return ((await res.json()) as { link: { id: string } }).link.id;
}

async function publish(owner: Owner): Promise<void> {
  expect((await call(owner, "POST", "/api/publish")).status).toBe(200);
}

let alpha: Owner;
let bravo: Owner;
/** Link ids of alpha's writes in the order the server acknowledged them, and how many came before the backup began. */
const linkWrites: string[] = [];
let linksBefore = 0;
/** Bravo's picture uploads in order, and how many came before the backup began. */
const pictureWrites: string[] = [];
let picturesBefore = 0;
/** What the owners published, as the live server wrote it (the files a static host serves). */
let livePages: Map<string, string>;
let alphaPage = "";
const isPage = (path: string) => served(path) && !path.startsWith("media/") && notACopy(path);

beforeAll(async () => {
  port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  const db = openDatabase({ path: join(live.data, "plinth.db") });
  const now = new Date();
  const owner = (username: string): Owner => {
    const { userId } = createAccount(db, { email: `${username}@example.com`, username, passwordHash: null, emailVerified: true, now });
    return { userId, username, cookie: `${SESSION_COOKIE}=${createSession(db, userId, { persistent: true, now }).token}` };
  };
  alpha = owner("backupalpha");
  bravo = owner("backupbravo");
  closeDatabase(db);
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("backup while the server takes writes, then restore into empty folders", () => {
  it("brings back every acknowledged write, every page as published and every picture byte for byte", async () => {
    const server = await startServer(live);
    try {
      // What the owners publish: pictures, a link with a thumbnail, a bio.
      await uploadPicture(alpha, 1);
      const form = new FormData();
      form.append("file", await photo(2), "thumb.jpg");
      form.append("kind", "thumbnail");
      const thumb = await call(alpha, "POST", "/api/links/files", form);
      expect(thumb.status).toBe(201);
      const thumbnailUrl = ((await thumb.json()) as { url: string }).url;
      stored.set(thumbnailUrl.slice(1), readFileSync(join(live.published, thumbnailUrl)));
      await addLink(alpha, "Alpha shop", { thumbnailUrl });
      expect((await call(alpha, "PATCH", "/api/profile/text", { bio: "Alpha's page, backed up", revision: (await revisions(alpha)).text })).status).toBe(200);
      await publish(alpha);
      pictureWrites.push(await uploadPicture(bravo, 3));
      await addLink(bravo, "Bravo blog");
      await publish(bravo);
      livePages = treeOf(live.published, isPage);
      alphaPage = readFileSync(join(live.published, "backupalpha", "index.html"), "utf8");
      expect([...livePages.keys()]).toEqual(expect.arrayContaining(["backupalpha/index.html", "backupbravo/index.html", "sitemap.xml"]));

      // Alpha keeps adding links and bravo keeps replacing the picture (the old one is swept at
      // once) until the backup has finished.
      let backupDone = false;
      let firstRounds = () => {};
      const roundsDone = new Promise<void>((resolve) => (firstRounds = resolve));
      const writer = (async () => {
        for (let i = 0; !backupDone; i++) {
          linkWrites.push(await addLink(alpha, `Write ${i}`));
          pictureWrites.push(await uploadPicture(bravo, 10 + i));
          if (i === 2) firstRounds();
        }
      })();
      await roundsDone;
      linksBefore = linkWrites.length;
      picturesBefore = pictureWrites.length;
      const backup = await npmRun("backup", [archive], envFor(live));
      backupDone = true;
      await writer;
      expect(backup.stderr).toBe("");
      expect(backup.code).toBe(0);
      expect(backup.stdout).toMatch(/^Backed up the database \(migration \w+\), \d+ media file\(s\) and \d+ sold file\(s\) to .*nightly\.tar\.gz: [\d.]+ MB in \d+ ms\.$/m);
      // The server kept answering while the backup ran.
      expect(linkWrites.length).toBeGreaterThan(linksBefore);
    } finally {
      await server.stop();
    }

    const restore = await npmRun("restore", [archive], envFor(restored));
    expect(restore.stderr).toBe("");
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(/re-rendered 2 page\(s\) for http:\/\/127\.0\.0\.1:\d+/);

    const db = new Database(join(restored.data, "plinth.db"), { readonly: true });
    try {
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      // Every link acknowledged before the backup began is there, and what is there of the later
      // ones is the first of them: the snapshot is one instant of the database.
      const ids = new Set(db.prepare("SELECT id FROM links WHERE user_id = ?").pluck().all(alpha.userId) as string[]);
      const kept = linkWrites.filter((id) => ids.has(id));
      expect(kept.length).toBeGreaterThanOrEqual(linksBefore);
      expect(kept).toEqual(linkWrites.slice(0, kept.length));
      // Bravo's draft picture is the last upload before the backup began or a later one, and its file is back.
      const picture = db.prepare("SELECT profile_picture_url FROM user_profiles WHERE user_id = ?").pluck().get(bravo.userId) as string;
      expect(pictureWrites.indexOf(picture)).toBeGreaterThanOrEqual(picturesBefore - 1);
      // Every file a row names is back, byte for byte as the server stored it.
      const keys = db.prepare("SELECT storage_key FROM uploads").pluck().all() as string[];
      expect(keys).toContain(picture.slice(1));
      for (const key of keys) expect(readFileSync(join(restored.published, key)).equals(stored.get(key)!), key).toBe(true);
    } finally {
      db.close();
    }
    // Every picture the backup holds is one the server stored, byte for byte.
    const media = treeOf(restored.published, (path) => path.startsWith("media/"));
    expect(media.size).toBeGreaterThanOrEqual(3);
    for (const key of media.keys()) expect(readFileSync(join(restored.published, key)).equals(stored.get(key)!), key).toBe(true);
    // Each page re-rendered exactly as it was published, with its files, the shared assets and the sitemap.
    expect(treeOf(restored.published, isPage)).toEqual(livePages);
    expect(alphaPage).toContain("Alpha&#x27;s page, backed up");
  }, 180_000);
});

describe("restore refuses", () => {
  it("to replace the data of a server running on the target, even with --force", async () => {
    const server = await startServer(restored);
    try {
      const before = treeOf(restored.published);
      const database = readFileSync(join(restored.data, "plinth.db"));
      const restore = await npmRun("restore", [archive, "--force"], envFor(restored));
      expect(restore.code).toBe(1);
      expect(restore.stderr.trim()).toBe(`${join(restored.data, "plinth.db")} is open in another process (a running Plinth server?). Stop the server, then restore.`);
      expect(treeOf(restored.published)).toEqual(before);
      expect(readFileSync(join(restored.data, "plinth.db")).equals(database)).toBe(true);
      // The restored server serves the page as the live one did.
      const page = await fetch(`${origin}/backupalpha`);
      expect(page.status).toBe(200);
      expect(await page.text()).toBe(alphaPage);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it("a truncated archive, with a clear message, leaving empty folders empty", async () => {
    const truncated = join(dir, "backups", "truncated.tar.gz");
    copyFileSync(archive, truncated);
    truncateSync(truncated, Math.floor(readFileSync(archive).length / 2));
    const empty: Folders = { data: join(dir, "empty", "data"), published: join(dir, "empty", "published") };
    const restore = await npmRun("restore", [truncated], envFor(empty));
    expect(restore.code).toBe(1);
    expect(restore.stderr.trim()).toBe(`${truncated} is damaged or incomplete (unexpected end of file). Nothing was restored.`);
    expect(existsSync(join(dir, "empty"))).toBe(false);
  }, 60_000);

  it("an archive that is not a backup, leaving a target's data as it was", async () => {
    const bogus = join(dir, "backups", "bogus.tar.gz");
    writeFileSync(bogus, "not a backup at all\n".repeat(100));
    // SQLite's own -wal and -shm files aside: the check for a running server opens the database,
    // and an empty WAL a stopped server left behind goes when that connection closes.
    const data = () => treeOf(restored.data, (path) => !/-(wal|shm)$/.test(path));
    const before = data();
    const published = treeOf(restored.published);
    const restore = await npmRun("restore", [bogus, "--force"], envFor(restored));
    expect(restore.code).toBe(1);
    expect(restore.stderr.trim()).toBe(`${bogus} is not a Plinth backup (not a tar archive: checksum failure).`);
    expect(data()).toEqual(before);
    expect(treeOf(restored.published)).toEqual(published);
  }, 60_000);
});

describe("the commands' arguments", () => {
  it.each([
    ["backup", ["--force"], "Usage: npm run backup -- <file>"],
    ["restore", ["one.tar.gz", "two.tar.gz"], "Usage: npm run restore -- <file> [--force]"],
  ] as const)("npm run %s -- %j prints its usage", async (command, args, usage) => {
    const run = await npmRun(command, [...args], envFor({ data: join(dir, "unused", "data"), published: join(dir, "unused", "published") }));
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(usage);
    expect(existsSync(join(dir, "unused"))).toBe(false);
  }, 60_000);
});
