/**
 * ADR 258: npm's postinstall keeps the compiled better-sqlite3 addon in npm's cache of prebuilt
 * binaries, and better-sqlite3's own install step (prebuild-install, without any network) then
 * unpacks it into a copy of the package that has no build, where it opens a database.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const require = createRequire(import.meta.url);
const addonDir = dirname(require.resolve("better-sqlite3/package.json"));
const dir = mkdtempSync(join(tmpdir(), "plinth-addon-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("keeping the compiled SQLite addon for the next install", () => {
  it("stores it where better-sqlite3's installer finds it, once, and that installer unpacks it into a package without a build", () => {
    const cache = join(dir, "npm-cache");
    // No address answers: a download attempt would fail, so only the kept file can install it.
    const env = { ...process.env, npm_config_cache: cache, https_proxy: "http://127.0.0.1:9", HTTPS_PROXY: "http://127.0.0.1:9" };
    const keep = () => execFileSync(process.execPath, ["--import", "tsx", "scripts/keep-sqlite-addon.ts"], { cwd: ROOT, env, encoding: "utf8" });
    expect(keep()).toContain("Kept the compiled better-sqlite3 addon");
    const kept = readdirSync(join(cache, "_prebuilds"));
    expect(kept).toEqual([expect.stringMatching(/^[0-9a-f]{6}-better-sqlite3-v[\d.]+-node-v\d+-linux-x64\.tar\.gz$/)]);
    // Kept already: the second install leaves it as it is.
    expect(keep()).toBe("");

    const copy = join(dir, "better-sqlite3");
    cpSync(addonDir, copy, { recursive: true, filter: (src) => !src.startsWith(join(addonDir, "build")) });
    expect(existsSync(join(copy, "build"))).toBe(false);
    execFileSync(process.execPath, [join(dirname(require.resolve("prebuild-install/package.json", { paths: [addonDir] })), "bin.js")], { cwd: copy, env, stdio: "pipe" });
    const Database = require("better-sqlite3");
    const db = new Database(":memory:", { nativeBinding: join(copy, "build", "Release", "better_sqlite3.node") });
    expect(db.prepare("select 1 + 1 as two").get()).toEqual({ two: 2 });
    db.close();
  });
});
