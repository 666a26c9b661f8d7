import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeDatabase, durably, openDatabase, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import * as t from "#db/schema.ts";

let dir: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "plinth-db-"));
  db = openDatabase({ path: join(dir, "test.db") });
});
afterEach(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});

const now = new Date("2026-01-01T00:00:00Z");

function addUser(username: string, email = `${username}@example.com`) {
  const id = newId();
  db.insert(t.users).values({ id, email }).run();
  db.insert(t.userProfiles).values({ userId: id, username, referralId: newId() }).run();
  return id;
}

describe("opening the database", () => {
  it("uses WAL, foreign keys and a busy timeout", () => {
    expect(db.$client.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.$client.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(db.$client.pragma("busy_timeout", { simple: true })).toBe(5000);
  });

  it("commits durably with synchronous=FULL and returns to NORMAL", () => {
    let inside: unknown;
    durably(db, () => {
      inside = db.$client.pragma("synchronous", { simple: true });
    });
    expect(inside).toBe(2);
    expect(db.$client.pragma("synchronous", { simple: true })).toBe(1);
  });

  it("rolls a durable transaction back when it throws", () => {
    expect(() =>
      durably(db, (tx) => {
        tx.insert(t.users).values({ id: "u1", email: "a@example.com" }).run();
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(db.select().from(t.users).all()).toHaveLength(0);
  });

  it("is idempotent: migrating an up-to-date database changes nothing", () => {
    closeDatabase(db);
    db = openDatabase({ path: join(dir, "test.db") });
    expect(db.select().from(t.users).all()).toEqual([]);
  });
});

describe("constraints", () => {
  it("keeps usernames unique regardless of case (stored lowercase)", () => {
    addUser("alice");
    const id = newId();
    db.insert(t.users).values({ id, email: "x@example.com" }).run();
    expect(() => db.insert(t.userProfiles).values({ userId: id, username: "alice", referralId: newId() }).run()).toThrow(/UNIQUE/);
    expect(() => db.insert(t.userProfiles).values({ userId: id, username: "Alice", referralId: newId() }).run()).toThrow(/CHECK/);
  });

  it("keeps e-mails unique and lowercase", () => {
    addUser("bob", "bob@example.com");
    expect(() => db.insert(t.users).values({ id: newId(), email: "bob@example.com" }).run()).toThrow(/UNIQUE/);
    expect(() => db.insert(t.users).values({ id: newId(), email: "Bob@Example.com" }).run()).toThrow(/CHECK/);
  });

  it("checks enum columns", () => {
    const uid = addUser("carol");
    expect(() => db.update(t.userProfiles).set({ planType: "gold" as never }).where(eq(t.userProfiles.userId, uid)).run()).toThrow(/CHECK/);
    expect(() => db.update(t.userProfiles).set({ selectedThemeName: "nope" as never }).where(eq(t.userProfiles.userId, uid)).run()).toThrow(/CHECK/);
    expect(() =>
      db.insert(t.links).values({ id: newId(), userId: uid, title: "x", url: "#", linkType: "bogus" as never }).run(),
    ).toThrow(/CHECK/);
    expect(() => db.insert(t.socialLinks).values({ id: newId(), userId: uid, platform: "myspace" as never, url: "x" }).run()).toThrow(/CHECK/);
    expect(() =>
      db.insert(t.pageReports).values({ id: newId(), reportedPageUsername: "carol", reason: "boring" as never }).run(),
    ).toThrow(/CHECK/);
  });

  it("refuses a schedule that ends before it starts", () => {
    const uid = addUser("dave");
    expect(() =>
      db
        .insert(t.links)
        .values({ id: newId(), userId: uid, title: "x", url: "#", scheduleStartTime: now, scheduleEndTime: new Date(now.getTime() - 1) })
        .run(),
    ).toThrow(/CHECK/);
  });

  it("allows one link per platform per owner", () => {
    const uid = addUser("erin");
    db.insert(t.socialLinks).values({ id: newId(), userId: uid, platform: "github", url: "https://github.com/erin" }).run();
    expect(() => db.insert(t.socialLinks).values({ id: newId(), userId: uid, platform: "github", url: "https://github.com/e2" }).run()).toThrow(
      /UNIQUE/,
    );
  });

  it("refuses payouts whose net amount does not add up", () => {
    const uid = addUser("fay");
    expect(() =>
      db
        .insert(t.payoutRequests)
        .values({ id: newId(), userId: uid, requestedAmountCents: 2000, processingFeeCents: 60, netAmountCents: 2000, payoutEmail: "f@example.com" })
        .run(),
    ).toThrow(/CHECK/);
  });

  it("refuses rows pointing at a user that does not exist", () => {
    expect(() => db.insert(t.links).values({ id: newId(), userId: "nobody", title: "x", url: "#" }).run()).toThrow(/FOREIGN KEY/);
  });

  it("deletes every row of an owner with the user", () => {
    const uid = addUser("gus");
    const other = addUser("hal");
    const listId = newId();
    db.insert(t.linkLists).values({ id: listId, userId: uid, title: "L" }).run();
    db.insert(t.links).values({ id: newId(), userId: uid, title: "a", url: "https://a.example", parentListId: listId }).run();
    db.insert(t.links).values({ id: newId(), userId: other, title: "b", url: "https://b.example" }).run();
    db.insert(t.socialLinks).values({ id: newId(), userId: uid, platform: "x", url: "https://x.com/gus" }).run();
    db.insert(t.sessions).values({ id: newId(), secretHash: "h", userId: uid, expiresAt: now }).run();
    db.insert(t.pageVersions).values({ id: newId(), userId: uid, version: 1, snapshot: {}, contentHash: "h", htmlFile: "gus/index.html", publishedAt: now }).run();
    db.insert(t.analyticsEvents).values({ userId: uid, kind: "page_view", occurredAt: now }).run();
    db.insert(t.collectedLeads).values({ id: newId(), userId: uid, linkTitle: "a", email: "v@example.com" }).run();
    db.insert(t.user2faSettings).values({ userId: uid, secretKey: "S" }).run();
    db.insert(t.upgradeRequests).values({ id: newId(), userId: uid, featureKey: "seo_settings" }).run();

    db.delete(t.users).where(eq(t.users.id, uid)).run();

    for (const table of [t.userProfiles, t.links, t.linkLists, t.socialLinks, t.sessions, t.pageVersions, t.collectedLeads, t.user2faSettings, t.upgradeRequests]) {
      const rows = db.select().from(table).all() as Array<{ userId?: string | null }>;
      expect(rows.filter((r) => r.userId === uid)).toHaveLength(0);
    }
    expect(db.select().from(t.analyticsEvents).all()).toHaveLength(0);
    expect(db.select().from(t.links).all()).toHaveLength(1);
  });

  it("keeps a link when its list is deleted, outside any list", () => {
    const uid = addUser("ivy");
    const listId = newId();
    const linkId = newId();
    db.insert(t.linkLists).values({ id: listId, userId: uid, title: "L" }).run();
    db.insert(t.links).values({ id: linkId, userId: uid, title: "a", url: "https://a.example", parentListId: listId }).run();
    db.delete(t.linkLists).where(eq(t.linkLists.id, listId)).run();
    expect(db.select().from(t.links).where(eq(t.links.id, linkId)).get()?.parentListId).toBeNull();
  });
});
