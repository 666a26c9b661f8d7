/**
 * The backup archive and restore's checks, in-process: an archive is refused before anything is
 * written unless every file matches its manifest, hostile entries included; a backup of an older
 * schema is migrated on restore; uploads swept while a backup runs never leave a hole; a target
 * that holds data is refused, or with --force moved aside.
 */
import { createHash, randomBytes } from "node:crypto";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import Database from "better-sqlite3";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { Header, Parser } from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "#api/services/accounts.ts";
import { closeDatabase, MIGRATIONS_FOLDER, openDatabase } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { uploads } from "#db/schema.ts";
import { publishPage } from "#renderer/publish.ts";
import { knownMigrations, type Manifest } from "#api/backup/archive.ts";
import { createBackup } from "#api/backup/create.ts";
import { OperatorError } from "#api/backup/operator-error.ts";
import { restoreBackup } from "#api/backup/restore.ts";
import { notACopy, treeOf, type Folders } from "#tests/support/backup.ts";

const ORIGIN = "http://localhost:4321";
const dir = mkdtempSync(join(tmpdir(), "plinth-archive-"));
const source: Folders = { data: join(dir, "source", "data"), published: join(dir, "source", "published") };
const dbPath = (f: Folders) => join(f.data, "plinth.db");
let archive: string;
let count = 0;
const fresh = (): Folders => {
  const root = join(dir, `target-${++count}`);
  return { data: join(root, "data"), published: join(root, "published") };
};
const restore = (file: string, target: Folders, force = false) =>
  restoreBackup({ archive: file, databasePath: dbPath(target), publishedDir: target.published, origin: ORIGIN, force });

/** A media file the way the product stores one: a random key and its bytes. */
function storeMedia(f: Folders, db: ReturnType<typeof openDatabase>, userId: string, withFile = true): string {
  const hex = randomBytes(16).toString("hex");
  const key = `media/${hex.slice(0, 2)}/${hex}.jpg`;
  if (withFile) {
    mkdirSync(join(f.published, "media", hex.slice(0, 2)), { recursive: true });
    writeFileSync(join(f.published, key), randomBytes(2000));
  }
  db.insert(uploads).values({ id: newId(), userId, kind: "profile_picture", storageKey: key, contentType: "image/jpeg", bytes: 2000, createdAt: new Date() }).run();
  return key;
}

interface Entry {
  path: string;
  body: Buffer;
  type?: "File" | "SymbolicLink" | "Directory";
  linkpath?: string;
}

/** The archive's entries in order, with their bytes. */
function entriesOf(file: string): Entry[] {
  const out: Entry[] = [];
  const parser = new Parser({
    onReadEntry: (e) => {
      const chunks: Buffer[] = [];
      e.on("data", (c: Buffer) => chunks.push(c));
      e.on("end", () => out.push({ path: e.path, body: Buffer.concat(chunks) }));
    },
  });
  parser.end(readFileSync(file));
  return out;
}

/** A tar.gz of these entries, written by hand so any of them can be hostile. */
function writeTarball(file: string, entries: Entry[]): string {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const type = e.type ?? "File";
    const size = type === "File" ? e.body.length : 0;
    const header = Buffer.alloc(512);
    new Header({ path: e.path, mode: 0o644, size, type, linkpath: e.linkpath, mtime: new Date(0) }).encode(header, 0);
    blocks.push(header);
    if (size) blocks.push(e.body, Buffer.alloc((512 - (size % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  writeFileSync(file, gzipSync(Buffer.concat(blocks)));
  return file;
}

/** The good archive with its manifest edited and/or its entries replaced. */
function variant(name: string, edit: { manifest?: (m: Manifest) => void; entries?: (e: Entry[]) => Entry[] }): string {
  const entries = entriesOf(archive);
  const manifest = JSON.parse(entries[0]!.body.toString("utf8")) as Manifest;
  edit.manifest?.(manifest);
  entries[0] = { path: "manifest.json", body: Buffer.from(JSON.stringify(manifest)) };
  return writeTarball(join(dir, `${name}.tar.gz`), edit.entries ? edit.entries(entries) : entries);
}

let ownerId: string;
beforeAll(async () => {
  const db = openDatabase({ path: dbPath(source) });
  ({ userId: ownerId } = createAccount(db, { email: "archive@example.com", username: "archiveowner", passwordHash: null, emailVerified: true, now: new Date() }));
  storeMedia(source, db, ownerId);
  storeMedia(source, db, ownerId);
  publishPage(db, ownerId, { publishedDir: source.published, origin: ORIGIN, now: new Date() });
  closeDatabase(db);
  archive = (await createBackup({ databasePath: dbPath(source), publishedDir: source.published, out: join(dir, "good.tar.gz") })).out;
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the archive", () => {
  it("starts with a manifest that lists the database and each media file with its size and checksum", () => {
    const entries = entriesOf(archive);
    const manifest = JSON.parse(entries[0]!.body.toString("utf8")) as Manifest;
    expect(entries[0]!.path).toBe("manifest.json");
    expect(manifest).toMatchObject({ format: "plinth-backup", version: 2, plinthVersion: expect.stringMatching(/^\d+\.\d+\.\d+/), migration: knownMigrations().at(-1)!.tag, counts: { media: 2 } });
    expect(manifest.files.map((f) => f.path)).toEqual(entries.slice(1).map((e) => e.path));
    expect(manifest.files[0]).toMatchObject({ path: "plinth.db" });
    for (const e of entries.slice(1)) {
      const listed = manifest.files.find((f) => f.path === e.path)!;
      expect(listed.bytes).toBe(e.body.length);
      expect(listed.sha256).toBe(createHashHex(e.body));
    }
    // The database file stands alone: rollback journal, no -wal needed.
    expect(entries[1]!.body[18]).toBe(1);
  });

  it("is readable by its owner only", () => {
    expect(readFileSync(archive).length).toBeGreaterThan(0);
    const { mode } = statSync(archive);
    expect(mode & 0o777).toBe(0o600);
  });
});

describe("backup refuses", () => {
  it.each([
    ["an archive name that exists", () => archive, /already exists: name a new file\.$/],
    ["a place inside PUBLISHED_DIR", () => join(source.published, "backup.tar.gz"), /is inside PUBLISHED_DIR \(.*\), where anyone could download it/],
  ])("%s", async (_, out, message) => {
    await expect(createBackup({ databasePath: dbPath(source), publishedDir: source.published, out: out() })).rejects.toThrow(message);
    expect(existsSync(join(source.published, "backup.tar.gz"))).toBe(false);
  });

  it("a missing database", async () => {
    const err = await createBackup({ databasePath: join(dir, "nothing", "plinth.db"), publishedDir: source.published, out: join(dir, "never.tar.gz") }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OperatorError);
    expect((err as Error).message).toBe(`There is no database at ${join(dir, "nothing", "plinth.db")}: check DATA_DIR.`);
    expect(existsSync(join(dir, "never.tar.gz"))).toBe(false);
  });
});

describe("media the database names", () => {
  it("takes the snapshot again when a file it names is swept while the backup runs", async () => {
    const f = fresh();
    const db = openDatabase({ path: dbPath(f) });
    const { userId } = createAccount(db, { email: "sweep@example.com", username: "sweepowner", passwordHash: null, emailVerified: true, now: new Date() });
    storeMedia(f, db, userId);
    // A row whose file the first pass did not see, swept (row, then file) right after the snapshot.
    const swept = storeMedia(f, db, userId, false);
    const attempts: number[] = [];
    const result = await createBackup({
      databasePath: dbPath(f),
      publishedDir: f.published,
      out: join(dir, "swept.tar.gz"),
      onSnapshot: (attempt) => {
        attempts.push(attempt);
        if (attempt === 1) db.delete(uploads).where(eq(uploads.storageKey, swept)).run();
      },
    });
    closeDatabase(db);
    expect(attempts).toEqual([1, 2]);
    expect(result.missingMedia).toEqual([]);
    expect(result.manifest.counts.media).toBe(1);
  });

  it("names a file the database names that was already missing, and still writes the backup", async () => {
    const f = fresh();
    const db = openDatabase({ path: dbPath(f) });
    const { userId } = createAccount(db, { email: "lost@example.com", username: "lostowner", passwordHash: null, emailVerified: true, now: new Date() });
    const lost = storeMedia(f, db, userId, false);
    closeDatabase(db);
    const result = await createBackup({ databasePath: dbPath(f), publishedDir: f.published, out: join(dir, "lost.tar.gz") });
    expect(result.missingMedia).toEqual([lost]);
    expect(existsSync(result.out)).toBe(true);
  });
});

describe("restore refuses an archive before writing anything", () => {
  const cases: [string, () => string, string | RegExp][] = [
    ["a file changed after the backup", () => variant("changed", { entries: (e) => e.map((x, i) => (i === 2 ? { ...x, body: Buffer.from(x.body).fill(7, 0, 10) } : x)) }), /is damaged: media\/\w{2}\/\w+\.jpg does not match its checksum\. Nothing was restored\.$/],
    ["a file missing", () => variant("missing", { entries: (e) => e.slice(0, 2) }), /is incomplete: media\/\w{2}\/\w+\.jpg is missing\. Nothing was restored\.$/],
    ["a file its manifest does not list", () => variant("extra", { entries: (e) => [...e, { path: "media/ab/abababababababababababababababab.jpg", body: Buffer.from("x") }] }), /holds media\/ab\/abab\w+\.jpg, which its manifest does not list\.$/],
    ["a path that climbs out", () => variant("climb", { entries: (e) => [...e, { path: "../../etc/cron.d/evil", body: Buffer.from("x") }] }), /holds \.\.\/\.\.\/etc\/cron\.d\/evil, which its manifest does not list\.$/],
    ["a symbolic link", () => variant("link", { entries: (e) => [e[0]!, { path: "plinth.db", body: Buffer.alloc(0), type: "SymbolicLink", linkpath: "/etc/passwd" }, ...e.slice(2)] }), /holds plinth\.db, which is not a plain file \(SymbolicLink\)\.$/],
    ["a file twice", () => variant("twice", { entries: (e) => [...e, e[1]!] }), /holds plinth\.db twice\.$/],
    ["a manifest listing a path outside the media folder", () => variant("outside", { manifest: (m) => void (m.files[1]!.path = "../outside.jpg") }), /has a damaged manifest \(files\.1\.path: is neither the database, a media file nor a sold file\)\.$/],
    ["a manifest that is not first", () => variant("late", { entries: (e) => [e[1]!, e[0]!, ...e.slice(2)] }), /is not a Plinth backup: it does not start with manifest\.json\.$/],
    ["a newer backup format", () => variant("newer", { manifest: (m) => void ((m as { version: number }).version = 3) }), /was written by a newer Plinth \(backup format 3; this one reads 2\)\. Upgrade Plinth to restore it\.$/],
    ["a migration this Plinth does not know", () => variant("future", { manifest: (m) => void (m.migration = "9999_from_the_future") }), /holds a database at migration 9999_from_the_future, which this Plinth does not know; restore it with Plinth \d+\.\d+\.\d+ or later\.$/],
    ["a gzip stream cut short", () => {
      const file = join(dir, "cut.tar.gz");
      writeFileSync(file, readFileSync(archive).subarray(0, -20));
      return file;
    }, /is damaged or incomplete \(unexpected end of file\)\. Nothing was restored\.$/],
    ["a tar cut short inside a good gzip stream", () => {
      const file = join(dir, "short.tar.gz");
      writeFileSync(file, gzipSync(gunzipSync(readFileSync(archive)).subarray(0, 3000)));
      return file;
    }, /is damaged or incomplete \(Truncated input \(needed \d+ more bytes, only \d+ available\)\)\. Nothing was restored\.$/],
    ["a missing file", () => join(dir, "no-such-backup.tar.gz"), /^There is no backup at .*no-such-backup\.tar\.gz\.$/],
  ];

  it.each(cases)("%s", async (_, make, message) => {
    const file = make();
    const empty = fresh();
    const err = await restore(file, empty).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OperatorError);
    expect((err as Error).message).toMatch(message);
    expect(existsSync(join(empty.data, ".."))).toBe(false);
  });

  it("restores a format-1 archive (before sold files were backed up, ADR 238)", async () => {
    const file = variant("format-1", { manifest: (m) => {
      (m as { version: number }).version = 1;
      delete (m.counts as { downloads?: number }).downloads;
    } });
    const result = await restore(file, fresh());
    expect(result.manifest).toMatchObject({ version: 1, counts: { downloads: 0 } });
  });

  it("leaves a target's data exactly as it was, even with --force", async () => {
    const target = fresh();
    await restore(archive, target);
    const before = [treeOf(target.data), treeOf(target.published)];
    const err = await restore(variant("changed-again", { entries: (e) => e.map((x, i) => (i === 1 ? { ...x, body: Buffer.from(x.body).fill(0, 100, 200) } : x)) }), target, true).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/plinth\.db does not match its checksum/);
    expect([treeOf(target.data), treeOf(target.published)]).toEqual(before);
  });
});

describe("restore", () => {
  it("migrates a backup taken at an older schema", async () => {
    const migrations = knownMigrations();
    expect(migrations.length).toBeGreaterThan(1);
    // A database as the previous release left it: every migration but the last.
    const older = join(dir, "older-migrations");
    mkdirSync(join(older, "meta"), { recursive: true });
    for (const f of readdirSync(MIGRATIONS_FOLDER)) if (f.endsWith(".sql")) copyFileSync(join(MIGRATIONS_FOLDER, f), join(older, f));
    const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as { entries: unknown[] };
    writeFileSync(join(older, "meta", "_journal.json"), JSON.stringify({ ...journal, entries: journal.entries.slice(0, -1) }));
    const f = fresh();
    mkdirSync(f.data, { recursive: true });
    const sqlite = new Database(dbPath(f));
    sqlite.pragma("journal_mode = WAL");
    migrate(drizzle(sqlite), { migrationsFolder: older });
    sqlite.close();

    const backup = await createBackup({ databasePath: dbPath(f), publishedDir: f.published, out: join(dir, "older.tar.gz") });
    expect(backup.manifest.migration).toBe(migrations.at(-2)!.tag);
    const target = fresh();
    await restore(backup.out, target);
    const restored = new Database(dbPath(target), { readonly: true });
    expect(restored.prepare("SELECT max(created_at) FROM __drizzle_migrations").pluck().get()).toBe(migrations.at(-1)!.when);
    restored.close();
  });

  it("refuses folders that hold data unless told to replace them, and then moves that data aside", async () => {
    // The source's data, copied: restore writes the shared assets it finds missing once per process and folder.
    const target = fresh();
    cpSync(source.data, target.data, { recursive: true });
    cpSync(source.published, target.published, { recursive: true });
    writeFileSync(join(target.published, "404.html"), "<h1>not found</h1>");
    const before = treeOf(target.published, (p) => p !== "404.html");
    const database = readFileSync(dbPath(target));

    const err = await restore(archive, target).catch((e: unknown) => e);
    expect((err as Error).message).toBe(
      `DATA_DIR already holds a database (${dbPath(target)}) and PUBLISHED_DIR already holds pages or media (${target.published}). Restore into empty folders, or add --force to replace what is there (it is moved aside, not deleted).`,
    );

    const now = new Date("2030-01-02T03:04:05.678Z");
    const result = await restoreBackup({ archive, databasePath: dbPath(target), publishedDir: target.published, origin: ORIGIN, force: true, now });
    const stamp = "2030-01-02T03-04-05-678Z";
    expect(result.movedAside).toEqual([join(target.data, `replaced-${stamp}`), join(target.published, `.replaced-${stamp}`)]);
    expect(readFileSync(join(target.data, `replaced-${stamp}`, "plinth.db")).equals(database)).toBe(true);
    expect(treeOf(join(target.published, `.replaced-${stamp}`))).toEqual(before);
    // Files restore does not write stay where they were; the restored pages are back.
    expect(readFileSync(join(target.published, "404.html"), "utf8")).toBe("<h1>not found</h1>");
    expect(result.pages).toBe(1);
    const restored = (p: string) => !p.startsWith(".") && p !== "404.html" && notACopy(p);
    expect(treeOf(target.published, restored)).toEqual(treeOf(join(target.published, `.replaced-${stamp}`), restored));
  });
});

function createHashHex(b: Buffer): string {
  return createHash("sha256").update(b).digest("hex");
}
