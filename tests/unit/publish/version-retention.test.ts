/**
 * Published versions kept (ADR 093): the 20 the owner can roll back to, pruned in the publish's own
 * transaction; rollback and discard keep working on what is left.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { LIMITS } from "#core/limits.ts";
import { createAccount } from "#api/services/accounts.ts";
import { pageVersions, userProfiles } from "#db/schema.ts";
import { loadDraft } from "#renderer/draft.ts";
import { discardDraft, listVersions, publishPage, rollbackTo } from "#renderer/publish.ts";
import { fileDatabase } from "#tests/support/file-database.ts";

const { db, publishedDir } = fileDatabase("plinth-retention-");
const ORIGIN = "http://localhost:4321";
const opts = () => ({ publishedDir, origin: ORIGIN, now: new Date() });

function owner(username: string) {
  const { userId } = createAccount(db, { email: `${username}@example.com`, username, passwordHash: null, emailVerified: true, now: new Date() });
  const name = (displayName: string) => db.update(userProfiles).set({ displayName }).where(eq(userProfiles.userId, userId)).run();
  const versions = () => db.select({ version: pageVersions.version }).from(pageVersions).where(eq(pageVersions.userId, userId)).all().map((r) => r.version).sort((a, b) => a - b);
  return { userId, name, versions, page: () => readFileSync(join(publishedDir, username, "index.html"), "utf8") };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("page_versions retention", () => {
  it("keeps the 20 listed versions and deletes older ones as it publishes", () => {
    const o = owner("retained");
    const other = owner("untouched");
    other.name("Other page");
    expect(publishPage(db, other.userId, opts())).toMatchObject({ ok: true, version: 1 });

    for (let i = 1; i <= 25; i++) {
      o.name(`Version ${i}`);
      expect(publishPage(db, o.userId, opts())).toMatchObject({ ok: true, version: i, changed: true });
      expect(o.versions()).toEqual(range(Math.max(1, i - LIMITS.ROLLBACK_VERSIONS + 1), i));
    }
    expect(listVersions(db, o.userId).map((v) => v.version)).toEqual(range(6, 25).reverse());
    // Another owner's versions are not touched.
    expect(other.versions()).toEqual([1]);
  });

  it("rolls back to the oldest kept version and discards to the live one afterwards", () => {
    const o = owner("rollsback");
    for (let i = 1; i <= 25; i++) {
      o.name(`Version ${i}`);
      publishPage(db, o.userId, opts());
    }
    expect(rollbackTo(db, o.userId, 5, opts())).toEqual({ ok: false, reason: "no_version" });
    expect(rollbackTo(db, o.userId, 6, opts())).toEqual({ ok: true, version: 26, changed: true });
    expect(o.page()).toContain("Version 6");
    expect(o.versions()).toEqual(range(7, 26));

    o.name("An unpublished edit");
    expect(discardDraft(db, o.userId)).toBe(true);
    expect(loadDraft(db, o.userId)!.snapshot.profile.displayName).toBe("Version 6");
  });
});
