/**
 * Published pages read in bulk: the last published version of each page with its owner's plan as it
 * is now, whole or streamed, and nothing of owners who never published.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createAccount } from "#api/services/accounts.ts";
import { PageSnapshotSchema } from "#core/model.ts";
import { databaseFile, openDatabase } from "#db/client.ts";
import { userProfiles } from "#db/schema.ts";
import { discardDraft, draftState, lastPublishedSnapshot, publishPage } from "#renderer/publish.ts";
import { republishAll } from "#renderer/republish.ts";
import { fileDatabase } from "#tests/support/file-database.ts";
import { loadPublishedBatch, publishedOwners, publishedUserIds, streamPublishedBatch } from "#renderer/published-pages.ts";

const { db, publishedDir } = fileDatabase("plinth-pages-");

function owner(username: string, plus: boolean) {
  const { userId } = createAccount(db, { email: `${username}@example.com`, username, passwordHash: null, emailVerified: true, now: new Date() });
  if (plus) db.update(userProfiles).set({ planType: "plus", subscriptionStatus: "active_plus", currentPeriodEndDate: new Date("2031-01-02T03:04:05.678Z") }).where(eq(userProfiles.userId, userId)).run();
  return userId;
}

describe("published pages in bulk", () => {
  it("reads each page's last version and current plan, the same whole or streamed", () => {
    const a = owner("pagesz", true);
    const b = owner("pagesb", false);
    const never = owner("pagesnever", false);
    for (const [id, names] of [[a, ["First A", "Second A"]], [b, ["Only B"]]] as const) {
      for (const name of names) {
        db.update(userProfiles).set({ displayName: name }).where(eq(userProfiles.userId, id)).run();
        expect(publishPage(db, id, { publishedDir, origin: "https://plinth.example", now: new Date() }).ok).toBe(true);
      }
    }
    expect(publishedUserIds(db).sort()).toEqual([a, b].sort());
    // In username order, the sitemap's.
    expect(publishedOwners(db)).toEqual([
      { userId: b, username: "pagesb" },
      { userId: a, username: "pagesz" },
    ]);

    const whole = loadPublishedBatch(db, [a, b, never]);
    expect(whole.map((p) => p.userId).sort()).toEqual([a, b].sort());
    const pageA = whole.find((p) => p.userId === a)!;
    expect(PageSnapshotSchema.parse(JSON.parse(pageA.snapshotJson)).profile.displayName).toBe("Second A");
    expect(pageA.plan).toMatchObject({ planType: "plus", subscriptionStatus: "active_plus", currentPeriodEndDate: "2031-01-02T03:04:05.678Z" });
    expect(whole.find((p) => p.userId === b)!.plan.trialEndsAt).toMatch(/^\d{4}-\d\d-\d\dT/);

    // A worker's own connection sees the same pages, one at a time.
    const other = openDatabase({ path: databaseFile(db)!, migrate: false });
    try {
      expect([...streamPublishedBatch(other, [a, b, never])].sort((x, y) => x.userId.localeCompare(y.userId))).toEqual(
        [...whole].sort((x, y) => x.userId.localeCompare(y.userId)),
      );
      expect([...streamPublishedBatch(other, [])]).toEqual([]);
    } finally {
      other.$client.close();
    }
    expect(databaseFile(openDatabase({ path: ":memory:" }))).toBeNull();
  });

  it("stores snapshots as plain JSON, checked by the schema when read, and republishes and discards from them (ADR 097)", async () => {
    const id = owner("pagesold", false);
    db.update(userProfiles).set({ displayName: "Stored long ago" }).where(eq(userProfiles.userId, id)).run();
    expect(publishPage(db, id, { publishedDir, origin: "https://plinth.example", now: new Date() }).ok).toBe(true);
    const raw = db.$client.prepare<[string], { snapshot: string }>("SELECT snapshot FROM page_versions WHERE user_id = ?");
    const stored = raw.get(id)!.snapshot;
    expect(PageSnapshotSchema.parse(JSON.parse(stored)).profile).toMatchObject({ username: "pagesold", displayName: "Stored long ago" });
    expect(lastPublishedSnapshot(db, id)!.snapshot.profile.displayName).toBe("Stored long ago");
    expect(draftState(db, id, new Date())!.hasUnpublishedChanges).toBe(false);

    // A row the schema refuses is never drawn: reading it fails instead.
    const broken = JSON.parse(stored) as { profile: Record<string, unknown> };
    broken.profile.selectedThemeName = 42;
    db.$client.prepare("UPDATE page_versions SET snapshot = ? WHERE user_id = ?").run(JSON.stringify(broken), id);
    expect(() => lastPublishedSnapshot(db, id)).toThrow();
    db.$client.prepare("UPDATE page_versions SET snapshot = ? WHERE user_id = ?").run(stored, id);

    const file = join(publishedDir, "pagesold", "index.html");
    writeFileSync(file, "stale");
    await republishAll(db, { publishedDir, origin: "https://plinth.example", threads: 1 });
    expect(readFileSync(file, "utf8")).toContain("Stored long ago");

    db.update(userProfiles).set({ displayName: "Edited since" }).where(eq(userProfiles.userId, id)).run();
    expect(discardDraft(db, id)).toBe(true);
    expect(db.select({ n: userProfiles.displayName }).from(userProfiles).where(eq(userProfiles.userId, id)).get()!.n).toBe("Stored long ago");
  });
});
