/**
 * Migrations that rebuild a table (SQLite's way to change a column) must keep every row that points
 * at it: a database from before 0003 (invoices and the test provider's customers rebuilt) keeps its
 * commissions' and renewals' invoices and the test provider's subscriptions, sessions and invoices.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { afterEach, beforeEach, expect, it } from "vitest";
import { PageLinkListSchema, PageLinkSchema, PageProfileFieldsSchema, PageProfileSchema, PageSocialLinkSchema, type PageSnapshot } from "#core/model.ts";
import { closeDatabase, MIGRATIONS_FOLDER, openDatabase } from "#db/client.ts";
import { randomPage } from "../renderer/random-pages.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "plinth-migrations-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A database migrated up to and including `lastTag`, as an older release left it. */
function databaseAt(lastTag: string): string {
  const folder = join(dir, "migrations");
  mkdirSync(join(folder, "meta"), { recursive: true });
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as { entries: { tag: string }[] };
  const upTo = journal.entries.findIndex((e) => e.tag === lastTag);
  expect(upTo).toBeGreaterThanOrEqual(0);
  journal.entries = journal.entries.slice(0, upTo + 1);
  writeFileSync(join(folder, "meta", "_journal.json"), JSON.stringify(journal));
  for (const e of journal.entries) copyFileSync(join(MIGRATIONS_FOLDER, `${e.tag}.sql`), join(folder, `${e.tag}.sql`));
  const path = join(dir, "old.db");
  const sqlite = new Database(path);
  sqlite.pragma("foreign_keys = ON");
  migrate(drizzle(sqlite), { migrationsFolder: folder });
  sqlite.close();
  return path;
}

it("rebuilding invoices and the test provider's customers keeps every row that points at them", () => {
  const path = databaseAt("0002_conscious_beyonder");
  const old = new Database(path);
  old.pragma("foreign_keys = ON");
  const t = Date.UTC(2026, 0, 1);
  old.exec(`
    INSERT INTO users (id, email) VALUES ('u1', 'a@example.com'), ('u2', 'b@example.com');
    INSERT INTO invoices (id, user_id, amount_cents, status, description) VALUES ('in_1', 'u1', 899, 'paid', 'Plinth Plus (monthly)');
    INSERT INTO referral_earnings (id, referrer_id, referred_user_id, invoice_id, payment_cents, commission_cents) VALUES ('re_1', 'u2', 'u1', 'in_1', 899, 180);
    INSERT INTO balance_renewals (id, user_id, request_key, months, cost_cents, invoice_id, period_end) VALUES ('br_1', 'u1', 'k', 1, 899, 'in_1', ${t});
    INSERT INTO test_billing_customers (id, user_id, email) VALUES ('cus_1', 'u1', 'a@example.com');
    INSERT INTO test_billing_subscriptions (id, customer_id, status, amount_cents, current_period_start, current_period_end) VALUES ('sub_1', 'cus_1', 'active', 899, ${t}, ${t + 1});
    INSERT INTO test_billing_sessions (id, kind, customer_id, success_url, cancel_url, expires_at) VALUES ('cs_1', 'checkout', 'cus_1', '/', '/', ${t});
    INSERT INTO test_billing_invoices (id, customer_id, subscription_id, number, amount_cents, status, billing_reason, period_start, period_end) VALUES ('tin_1', 'cus_1', 'sub_1', 'PLN-000001', 899, 'paid', 'subscription_create', ${t}, ${t + 1});
  `);
  old.close();

  const db = openDatabase({ path });
  const q = (sql: string) => db.$client.prepare(sql).all();
  expect(q("SELECT invoice_id FROM referral_earnings")).toEqual([{ invoice_id: "in_1" }]);
  expect(q("SELECT invoice_id FROM balance_renewals")).toEqual([{ invoice_id: "in_1" }]);
  expect(q("SELECT id FROM test_billing_subscriptions")).toEqual([{ id: "sub_1" }]);
  expect(q("SELECT id FROM test_billing_sessions")).toEqual([{ id: "cs_1" }]);
  expect(q("SELECT id FROM test_billing_invoices")).toEqual([{ id: "tin_1" }]);
  expect(q("SELECT id, user_id, billed_email FROM invoices")).toEqual([{ id: "in_1", user_id: "u1", billed_email: null }]);
  expect(db.$client.pragma("foreign_keys", { simple: true })).toBe(1);
  closeDatabase(db);
});

it("pending billing follow-ups become jobs when the billing outbox is retired", () => {
  const path = databaseAt("0007_reflective_dark_phoenix");
  const old = new Database(path);
  const t = Date.UTC(2026, 0, 1);
  old.exec(`
    INSERT INTO billing_jobs (id, kind, payload, attempts, run_after, last_error, created_at)
    VALUES ('j1', 'mail', '{"to":"a@example.com","subject":"Receipt","text":"Thanks"}', 2, ${t + 20_000}, 'SMTP down', ${t}),
           ('j2', 'rerender', '{"userId":"u1"}', 0, ${t}, NULL, ${t + 1});
  `);
  old.close();

  const db = openDatabase({ path });
  const q = (sql: string) => db.$client.prepare(sql).all();
  expect(q("SELECT id, kind, payload, once_key, state, attempts, run_after, last_error, created_at FROM jobs ORDER BY created_at")).toEqual([
    { id: "j1", kind: "mail", payload: '{"to":"a@example.com","subject":"Receipt","text":"Thanks"}', once_key: null, state: "pending", attempts: 2, run_after: t + 20_000, last_error: "SMTP down", created_at: t },
    { id: "j2", kind: "rerender", payload: '{"userId":"u1"}', once_key: null, state: "pending", attempts: 0, run_after: t, last_error: null, created_at: t + 1 },
  ]);
  expect(q("SELECT name FROM sqlite_master WHERE name = 'billing_jobs'")).toEqual([]);
  closeDatabase(db);
});

it("events recorded before the rollups are counted into them once, bots left out", () => {
  const path = databaseAt("0008_flashy_landau");
  const old = new Database(path);
  const day = Date.UTC(2026, 2, 3);
  const at = day + 10 * 3_600_000 + 20 * 60_000; // 10:20 UTC, in the 10:15 quarter hour
  old.exec(`
    INSERT INTO users (id, email) VALUES ('u1', 'a@example.com');
    INSERT INTO analytics_events (user_id, kind, link_id, occurred_at, referrer_domain, device) VALUES
      ('u1', 'page_view', NULL, ${at}, 'instagram.com', 'mobile'),
      ('u1', 'page_view', NULL, ${at + 1}, NULL, 'desktop'),
      ('u1', 'link_click', 'l1', ${at + 2}, NULL, 'mobile'),
      ('u1', 'page_view', NULL, ${at + 3}, NULL, 'bot'),
      ('u1', 'link_click', 'l1', ${at + 4}, NULL, 'bot');
  `);
  old.close();

  const db = openDatabase({ path });
  const rows = db.$client
    .prepare("SELECT dimension, grain, bucket, key, views, clicks FROM analytics_rollups ORDER BY grain, dimension, key")
    .all();
  const d = day / 86_400_000;
  const q = (at - (at % 900_000)) / 900_000;
  expect(rows).toEqual([
    { dimension: "device", grain: "day", bucket: d, key: "desktop", views: 1, clicks: 0 },
    { dimension: "device", grain: "day", bucket: d, key: "mobile", views: 1, clicks: 0 },
    { dimension: "link", grain: "day", bucket: d, key: "l1", views: 0, clicks: 1 },
    { dimension: "page", grain: "day", bucket: d, key: "", views: 2, clicks: 1 },
    { dimension: "referrer", grain: "day", bucket: d, key: "", views: 1, clicks: 0 },
    { dimension: "referrer", grain: "day", bucket: d, key: "instagram.com", views: 1, clicks: 0 },
    { dimension: "device", grain: "quarter", bucket: q, key: "desktop", views: 1, clicks: 0 },
    { dimension: "device", grain: "quarter", bucket: q, key: "mobile", views: 1, clicks: 0 },
    { dimension: "link", grain: "quarter", bucket: q, key: "l1", views: 0, clicks: 1 },
    { dimension: "page", grain: "quarter", bucket: q, key: "", views: 2, clicks: 1 },
    { dimension: "referrer", grain: "quarter", bucket: q, key: "", views: 1, clicks: 0 },
    { dimension: "referrer", grain: "quarter", bucket: q, key: "instagram.com", views: 1, clicks: 0 },
  ]);
  closeDatabase(db);
});

it("keeps the rollups in key order (WITHOUT ROWID) with every count, and the checks still hold", () => {
  const path = databaseAt("0010_public_excalibur");
  const old = new Database(path);
  old.exec(`
    INSERT INTO users (id, email) VALUES ('u1', 'a@example.com');
    INSERT INTO analytics_rollups (user_id, dimension, grain, bucket, key, views, clicks, visitors) VALUES
      ('u1', 'page', 'day', 20500, '', 7, 3, 5),
      ('u1', 'country', 'quarter', 1968000, 'DE', 2, 0, 1);
  `);
  old.close();

  const db = openDatabase({ path });
  const q = (sql: string) => db.$client.prepare(sql).all();
  expect(q("SELECT user_id, dimension, grain, bucket, key, views, clicks, visitors FROM analytics_rollups ORDER BY dimension")).toEqual([
    { user_id: "u1", dimension: "country", grain: "quarter", bucket: 1968000, key: "DE", views: 2, clicks: 0, visitors: 1 },
    { user_id: "u1", dimension: "page", grain: "day", bucket: 20500, key: "", views: 7, clicks: 3, visitors: 5 },
  ]);
  const [table] = q("SELECT sql FROM sqlite_master WHERE name = 'analytics_rollups'") as { sql: string }[];
  expect(table!.sql).toMatch(/WITHOUT ROWID\s*$/);
  expect(() => db.$client.exec("INSERT INTO analytics_rollups (user_id, dimension, grain, bucket, key) VALUES ('u1', 'nope', 'day', 1, '')")).toThrow(/CHECK/);
  db.$client.exec("DELETE FROM users WHERE id = 'u1'");
  expect(q("SELECT count(*) n FROM analytics_rollups")).toEqual([{ n: 0 }]);
  closeDatabase(db);
});

it("gives every existing account the owner role, keeping what points at it, and makes the audit log append-only", () => {
  const path = databaseAt("0011_rollups_without_rowid");
  const old = new Database(path);
  old.exec(`
    INSERT INTO users (id, email) VALUES ('u1', 'a@example.com');
    INSERT INTO sessions (id, secret_hash, user_id, expires_at) VALUES ('s1', 'h', 'u1', 1);
  `);
  old.close();
  const db = openDatabase({ path });
  const q = (sql: string) => db.$client.prepare(sql).all();
  expect(q("SELECT id, role FROM users")).toEqual([{ id: "u1", role: "owner" }]);
  expect(q("SELECT id FROM sessions")).toEqual([{ id: "s1" }]);
  expect(() => db.$client.exec("UPDATE users SET role = 'root'")).toThrow(/CHECK/);
  db.$client.exec("INSERT INTO admin_audit_log (at, actor, action, target_type, target_id) VALUES (1, 'shell', 'role.grant', 'user', 'u1')");
  expect(() => db.$client.exec("UPDATE admin_audit_log SET reason = 'x'")).toThrow(/append-only/);
  expect(() => db.$client.exec("DELETE FROM admin_audit_log")).toThrow(/append-only/);
  closeDatabase(db);
});

it("pages published before their boundaries were jobs get one catch-up re-render when they have a schedule or a trial that just ended", () => {
  const path = databaseAt("0014_last_sign_in");
  const old = new Database(path);
  const now = Date.now();
  old.exec(`
    INSERT INTO users (id, email) VALUES ('sched', 's@example.com'), ('trial', 't@example.com'), ('plain', 'p@example.com'), ('draft', 'd@example.com'), ('oldtrial', 'o@example.com');
    INSERT INTO user_profiles (user_id, username, referral_id, has_published_page, trial_ends_at) VALUES
      ('sched', 'sched', 'r1', 1, NULL), ('trial', 'trial', 'r2', 1, ${now - 3_600_000}), ('plain', 'plain', 'r3', 1, ${now + 86_400_000}),
      ('draft', 'draft', 'r4', 0, NULL), ('oldtrial', 'oldtrial', 'r5', 1, ${now - 30 * 86_400_000});
    INSERT INTO links (id, user_id, title, url, schedule_start_time) VALUES ('l1', 'sched', 'Soon', 'https://example.com', ${now + 3_600_000}), ('l2', 'draft', 'Soon', 'https://example.com', ${now + 3_600_000});
  `);
  old.close();
  const db = openDatabase({ path });
  const jobs = db.$client.prepare("SELECT kind, payload, state FROM jobs ORDER BY payload").all();
  expect(jobs).toEqual([
    { kind: "rerender", payload: '{"userId":"sched"}', state: "pending" },
    { kind: "rerender", payload: '{"userId":"trial"}', state: "pending" },
  ]);
  closeDatabase(db);
});

/** Profile fields the model gained after format 1; a stored snapshot without them reads them from the rest (core/model.ts). */
const PROFILE_FIELDS_ADDED_SINCE = ["profilePictureFullwidthUrl", "longFormTextVisible"] as const;

/** Format 1 of the positional snapshot form (ADR 090), as stored before 0007: each record an array of its values. */
const FORMAT_1_FIELDS = {
  profile: ["username", "displayName", "bio", "seoTitle", "seoDescription", "longFormText", "profilePictureUrl", "profilePictureStyle", "profilePictureIconSubtype",
    "profilePictureFullwidthSubtype", "initialsText", "initialsBgColor", "selectedThemeName", "customPageBackgroundColor", "customButtonBackgroundColor",
    "customButtonBorderColor", "buttonShapeStyle", "socialLinksPosition", "customFontPairingName", "hidePlatformBranding", "removeBranding", "qrCodeVisible", "referralId"],
  link: ["id", "title", "url", "linkType", "data", "isMainButton", "isActive", "orderIndex", "thumbnailUrl", "scheduleStartTime", "scheduleEndTime", "parentListId"],
  list: ["id", "title", "orderIndex"],
  socialLink: ["id", "platform", "url", "displayOrder", "isVisible"],
} as const;
const positional = (s: PageSnapshot) => {
  const values = (fields: readonly string[], o: object) => fields.map((f) => (o as Record<string, unknown>)[f]);
  const f = FORMAT_1_FIELDS;
  return JSON.stringify([1, values(f.profile, s.profile), s.links.map((l) => values(f.link, l)), s.lists.map((l) => values(f.list, l)), s.socialLinks.map((l) => values(f.socialLink, l))]);
};

it("turns every snapshot stored in the positional form into the same snapshot as plain JSON, and leaves JSON snapshots alone (ADR 097)", () => {
  // The field lists name every field of the model but those added since (read with their defaults), so a snapshot comes back whole.
  expect([...FORMAT_1_FIELDS.profile, ...PROFILE_FIELDS_ADDED_SINCE].sort()).toEqual(Object.keys(PageProfileFieldsSchema.shape).sort());
  expect([...FORMAT_1_FIELDS.link].sort()).toEqual(Object.keys(PageLinkSchema.shape).sort());
  expect([...FORMAT_1_FIELDS.list].sort()).toEqual(Object.keys(PageLinkListSchema.shape).sort());
  expect([...FORMAT_1_FIELDS.socialLink].sort()).toEqual(Object.keys(PageSocialLinkSchema.shape).sort());
  const path = databaseAt("0006_colorful_harrier");
  const old = new Database(path);
  old.exec("INSERT INTO users (id, email) VALUES ('u1', 'a@example.com')");
  const insert = old.prepare("INSERT INTO page_versions (id, user_id, version, snapshot, content_hash, html_file, published_at) VALUES (?, 'u1', ?, ?, 'h', 'x/index.html', 0)");
  const snapshots: PageSnapshot[] = [];
  for (let seed = 1; seed <= 300; seed++) {
    const { s } = randomPage(seed);
    for (const f of PROFILE_FIELDS_ADDED_SINCE) delete (s.profile as Partial<PageSnapshot["profile"]>)[f];
    s.links.forEach((l, i) => {
      if (i % 3 === 0) l.scheduleStartTime = "2026-06-01T12:00:00.000Z";
      if (i % 4 === 1) l.scheduleEndTime = null;
    });
    snapshots.push(s);
    // Every third one was stored as an object already (before the positional form).
    insert.run(`v${seed}`, seed, seed % 3 === 0 ? JSON.stringify(s) : positional(s));
  }
  old.close();

  const db = openDatabase({ path });
  const rows = db.$client.prepare<[], { version: number; snapshot: string }>("SELECT version, snapshot FROM page_versions ORDER BY version").all();
  expect(rows).toHaveLength(300);
  for (const r of rows) {
    const expected = snapshots[r.version - 1]!;
    // The same keys in the same order as the model's own JSON, and nothing lost.
    if (r.snapshot !== JSON.stringify(expected)) expect({ version: r.version, stored: JSON.parse(r.snapshot) }).toEqual({ version: r.version, stored: expected });
  }
  closeDatabase(db);
});

it("renumbers every invoice PLN-000001 onwards in the order issued, balance-paid and detached ones included, and the sequence goes on (ADR 103)", async () => {
  const path = databaseAt("0010_public_excalibur");
  const old = new Database(path);
  const t = Date.UTC(2026, 0, 1);
  // Numbers as they were: the provider's (repeated after its rows went with a deleted account), random
  // balance-paid ones, none at all.
  old.exec(`
    INSERT INTO users (id, email) VALUES ('u1', 'a@example.com'), ('u2', 'b@example.com');
    INSERT INTO invoices (id, user_id, amount_cents, status, description, number, created_at) VALUES
      ('in_c', 'u1', 899, 'paid', 'Plinth Plus (monthly)', 'PLN-000002', ${t + 3000}),
      ('inb_a', 'u1', 1798, 'paid', 'Plinth Plus (monthly), 2 months paid from rewards balance', 'PLN-B-5QFRFX2U', ${t + 2000}),
      ('in_a', NULL, 899, 'paid', 'Plinth Plus (monthly)', 'PLN-000001', ${t}),
      ('in_b', 'u2', 899, 'open', 'Plinth Plus (monthly)', 'PLN-000001', ${t + 1000}),
      ('in_d', 'u2', 899, 'void', 'Plinth Plus (monthly)', NULL, ${t + 4000}),
      ('in_e', 'u2', 899, 'paid', 'Plinth Plus (monthly)', 'PLN-000003', ${t + 4000});
  `);
  old.close();

  const db = openDatabase({ path });
  const q = (sql: string) => db.$client.prepare(sql).all();
  expect(q("SELECT id, number FROM invoices ORDER BY number")).toEqual([
    { id: "in_a", number: "PLN-000001" },
    { id: "in_b", number: "PLN-000002" },
    { id: "inb_a", number: "PLN-000003" },
    { id: "in_c", number: "PLN-000004" },
    // The same instant: by id.
    { id: "in_d", number: "PLN-000005" },
    { id: "in_e", number: "PLN-000006" },
  ]);
  expect(q("SELECT id, last FROM invoice_sequence")).toEqual([{ id: 1, last: 6 }]);
  const { issueInvoice } = await import("#api/services/invoices.ts");
  const { durably } = await import("#db/client.ts");
  const next = durably(db, (tx) => issueInvoice(tx, { name: "Plinth Ltd", address: [], taxId: null, taxRateBp: 0 }, { id: "in_f", userId: "u1", amountCents: 899, status: "paid", description: "Plinth Plus (monthly)" }));
  expect(next).toBe("PLN-000007");
  closeDatabase(db);
});

it("an empty database starts the sequence at PLN-000001", () => {
  const db = openDatabase({ path: join(dir, "fresh.db") });
  expect(db.$client.prepare("SELECT id, last FROM invoice_sequence").all()).toEqual([{ id: 1, last: 0 }]);
  closeDatabase(db);
});

it("gives a full-width picture stored before 0018 its own full-width crop, and leaves icon pictures without one", () => {
  const path = databaseAt("0017_lyrical_calypso");
  const old = new Database(path);
  old.exec(`
    INSERT INTO users (id, email) VALUES ('wide', 'w@example.com'), ('icon', 'i@example.com'), ('none', 'n@example.com');
    INSERT INTO user_profiles (user_id, username, referral_id, profile_picture_url, profile_picture_style) VALUES
      ('wide', 'wide', 'r1', '/media/ab/wide.jpg', 'full_width'), ('icon', 'icon', 'r2', '/media/ab/icon.jpg', 'icon'), ('none', 'none', 'r3', NULL, 'full_width');
  `);
  old.close();
  const db = openDatabase({ path });
  const rows = db.$client.prepare("SELECT user_id, profile_picture_url, profile_picture_fullwidth_url FROM user_profiles ORDER BY user_id").all();
  expect(rows).toEqual([
    { user_id: "icon", profile_picture_url: "/media/ab/icon.jpg", profile_picture_fullwidth_url: null },
    { user_id: "none", profile_picture_url: null, profile_picture_fullwidth_url: null },
    { user_id: "wide", profile_picture_url: "/media/ab/wide.jpg", profile_picture_fullwidth_url: "/media/ab/wide.jpg" },
  ]);
  closeDatabase(db);
});

it("reads a snapshot stored before full-width pictures had their own crop with its picture as the full-width one", () => {
  const base = { ...randomPage(7).s.profile } as Partial<PageSnapshot["profile"]>;
  delete base.profilePictureFullwidthUrl;
  const wide = PageProfileSchema.parse({ ...base, profilePictureStyle: "full_width", profilePictureUrl: "/media/ab/wide.jpg" });
  expect(wide.profilePictureFullwidthUrl).toBe("/media/ab/wide.jpg");
  const icon = PageProfileSchema.parse({ ...base, profilePictureStyle: "icon", profilePictureUrl: "/media/ab/icon.jpg" });
  expect(icon.profilePictureFullwidthUrl).toBeNull();
  // A snapshot that has the field keeps it as stored.
  expect(PageProfileSchema.parse({ ...base, profilePictureStyle: "full_width", profilePictureFullwidthUrl: null }).profilePictureFullwidthUrl).toBeNull();
});

it("checks every foreign key after a start that migrated, and skips the full scan when nothing was migrated", () => {
  const breakOne = (path: string) => {
    const sqlite = new Database(path);
    sqlite.pragma("foreign_keys = OFF");
    sqlite.exec("INSERT INTO sessions (id, secret_hash, user_id, expires_at) VALUES ('s1', 'h', 'nobody', 0)");
    sqlite.close();
  };
  const old = databaseAt("0017_lyrical_calypso");
  breakOne(old);
  expect(() => openDatabase({ path: old })).toThrow(/broken foreign keys/);

  const current = join(dir, "current.db");
  closeDatabase(openDatabase({ path: current }));
  breakOne(current);
  const db = openDatabase({ path: current });
  expect(db.$client.pragma("foreign_keys", { simple: true })).toBe(1);
  closeDatabase(db);
});
