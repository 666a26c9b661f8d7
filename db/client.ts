/**
 * The one function that opens the database: WAL, foreign keys, a busy timeout, migrations applied.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import * as schema from "./schema.ts";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export const MIGRATIONS_FOLDER = fileURLToPath(new URL("./migrations", import.meta.url));

export interface OpenOptions {
  /** A file path, or ":memory:". */
  path: string;
  /** Apply pending migrations (default true). */
  migrate?: boolean;
}

export function openDatabase({ path, migrate: runMigrations = true }: OpenOptions): Db {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  // NORMAL is safe against corruption in WAL mode but may lose the last commits on power loss;
  // writes that must survive that go through durably() below.
  sqlite.pragma("synchronous = NORMAL");
  const db = drizzle(sqlite, { schema }) as Db;
  if (runMigrations) migrateSafely(db);
  return db;
}

/**
 * SQLite changes a column by rebuilding its table (create, copy, drop, rename). With foreign keys on,
 * dropping the old table fires the ON DELETE actions of every table that points at it, which would
 * empty or unlink them; the generated migrations' own PRAGMA is a no-op inside the migrator's
 * transaction. So foreign keys are off while migrating and checked once it is done, as SQLite's
 * documented procedure for schema changes asks (sqlite.org/lang_altertable.html).
 */
function migrateSafely(db: Db): void {
  const sqlite = db.$client;
  sqlite.pragma("foreign_keys = OFF");
  try {
    const before = appliedMigrations(db);
    const attempt = () => {
      try {
        migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
      } catch (err) {
        // Processes started together on a new database (ADR 180) all find it unmigrated; the first
        // migrates it, the others then fail on tables that now exist. All migrated is all that matters.
        if (appliedMigrations(db) < knownMigrations()) throw err;
      }
    };
    try {
      attempt();
    } catch (err) {
      // Or one finds the other's migration under way: SQLite refuses its write at once (SQLITE_BUSY)
      // rather than wait. Waiting for the write lock (the busy timeout applies) lets that one finish.
      if ((err as { code?: string }).code !== "SQLITE_BUSY") throw err;
      sqlite.transaction(() => undefined).immediate();
      attempt();
    }
    // The check reads every row (seconds on a large analytics table), so only a start that migrated pays for it.
    if (appliedMigrations(db) === before) return;
    const broken = sqlite.pragma("foreign_key_check") as unknown[];
    if (broken.length) throw new Error(`The migrated database has ${broken.length} broken foreign keys: ${JSON.stringify(broken.slice(0, 5))}`);
  } finally {
    sqlite.pragma("foreign_keys = ON");
  }
}

/** How many migrations this code ships (db/migrations/meta/_journal.json). */
function knownMigrations(): number {
  return (JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as { entries: unknown[] }).entries.length;
}

/** How many migrations the database has applied (none before its first). */
function appliedMigrations(db: Db): number {
  const table = db.$client.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  return table ? (db.$client.prepare("SELECT count(*) FROM __drizzle_migrations").pluck().get() as number) : 0;
}

/** The file a connection reads, or null for an in-memory database. */
export function databaseFile(db: Db): string | null {
  const name = db.$client.name;
  return db.$client.memory || name === "" || name === ":memory:" ? null : name;
}

/**
 * Runs fn in one transaction committed with synchronous=FULL, so the commit is on disk (not only in
 * the OS cache) when this returns: accounts, payments, publishes. better-sqlite3 is synchronous and
 * we hold one connection, so switching the pragma around the transaction affects nothing else.
 */
export function durably<T>(db: Db, fn: (tx: Db) => T): T {
  const sqlite = db.$client;
  sqlite.pragma("synchronous = FULL");
  try {
    return sqlite.transaction(() => fn(db)).immediate();
  } finally {
    sqlite.pragma("synchronous = NORMAL");
  }
}

/**
 * A plain transaction (rolled back if fn throws). Both helpers take the write lock at BEGIN: a
 * transaction that reads first and writes later cannot upgrade once another connection (a script,
 * a test, a second process) has written meanwhile; SQLite then fails at once with SQLITE_BUSY
 * instead of waiting out the busy timeout.
 */
export function transaction<T>(db: Db, fn: (tx: Db) => T): T {
  return db.$client.transaction(() => fn(db)).immediate();
}

export function closeDatabase(db: Db): void {
  db.$client.close();
}
