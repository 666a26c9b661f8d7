/**
 * Pages follow the template by themselves (ADR 097): the pages whose latest version was rendered
 * with another template fingerprint, or none recorded, are re-rendered oldest first, on a worker
 * thread under the page lock, with their progress logged; the others are left alone.
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createAccount } from "#api/services/accounts.ts";
import { pageVersions, userProfiles } from "#db/schema.ts";
import { ensureSharedAssets } from "#renderer/assets.ts";
import { followTemplate, outOfDateOwners } from "#renderer/follow-template.ts";
import { publishPage } from "#renderer/publish.ts";
import { templateFingerprint } from "#renderer/template-fingerprint.ts";
import { fileDatabase } from "#tests/support/file-database.ts";

const ORIGIN = "https://plinth.example";
const { db, publishedDir } = fileDatabase("plinth-follow-");

function owner(username: string, publishedAt: Date): string {
  const { userId } = createAccount(db, { email: `${username}@example.com`, username, passwordHash: null, emailVerified: true, now: publishedAt });
  db.update(userProfiles).set({ displayName: `Owner ${username}` }).where(eq(userProfiles.userId, userId)).run();
  expect(publishPage(db, userId, { publishedDir, origin: ORIGIN, now: publishedAt }).ok).toBe(true);
  return userId;
}

describe("pages following the template", () => {
  it("re-renders only the out-of-date pages, oldest first, and records the template each now follows", async () => {
    const fingerprint = templateFingerprint(ensureSharedAssets(publishedDir));
    const newer = owner("fnewer", new Date("2026-03-01T00:00:00Z"));
    const older = owner("folder", new Date("2026-01-01T00:00:00Z"));
    owner("fcurrent", new Date("2026-02-01T00:00:00Z"));
    // Rendered by an earlier template, and by one from before fingerprints were recorded.
    db.update(pageVersions).set({ templateFingerprint: "an-earlier-template" }).where(eq(pageVersions.userId, newer)).run();
    db.update(pageVersions).set({ templateFingerprint: null }).where(and(eq(pageVersions.userId, older), eq(pageVersions.version, 1))).run();
    for (const u of ["fnewer", "folder"]) writeFileSync(join(publishedDir, u, "index.html"), "rendered by an earlier template");
    const current = join(publishedDir, "fcurrent", "index.html");
    const untouched = statSync(current).ino;

    expect(outOfDateOwners(db, fingerprint).map((o) => o.username)).toEqual(["folder", "fnewer"]);
    const lines: string[] = [];
    expect(await followTemplate(db, { publishedDir, origin: ORIGIN, log: (l) => lines.push(l) })).toBe(2);
    for (const u of ["fnewer", "folder"]) expect(readFileSync(join(publishedDir, u, "index.html"), "utf8")).toContain(`Owner ${u}`);
    expect(statSync(current).ino).toBe(untouched);
    expect(lines[0]).toBe("Re-rendering 2 page(s) for the current template, oldest first…");
    expect(lines).toContain("Re-rendered 2/2 page(s) for the current template.");
    expect(lines.at(-1)).toMatch(/^All 2 out-of-date page\(s\) follow the current template \(\d+ ms\)\.$/);

    // Every page follows it now: a second start has nothing to do and says nothing.
    expect(outOfDateOwners(db, fingerprint)).toEqual([]);
    const again: string[] = [];
    expect(await followTemplate(db, { publishedDir, origin: ORIGIN, log: (l) => again.push(l) })).toBe(0);
    expect(again).toEqual([]);
  }, 60_000);

  it("names the assets a page links to: another visitor script is another template", () => {
    const assets = ensureSharedAssets(publishedDir);
    const other = { ...assets, visitorScript: { ...assets.visitorScript, integrity: "sha384-another" } };
    expect(templateFingerprint(other)).not.toBe(templateFingerprint(assets));
    expect(templateFingerprint(assets)).toMatch(/^[0-9a-f]{32}$/);
  });
});
