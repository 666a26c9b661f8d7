/**
 * A token bucket per key (a client address, an owner): `capacity` requests at once, refilled at
 * `perSecond`. The buckets live in SQLite, in a file of their own beside the database
 * (DATA_DIR/limits.db, ADR 180), so every server process on one DATA_DIR counts against the same
 * bucket: the same client gets the same limit whichever process answers. Taking a token is one
 * statement (an upsert that only succeeds while a token is left), so two processes never both take
 * the last one.
 *
 * The file is apart from the database so that a beacon's token never waits for the analytics
 * writer's commits, and it holds nothing worth keeping: it is not backed up, and deleting it (with
 * the servers stopped) only forgets who was being limited. A bucket that has had time to fill up
 * again is the same as none, so those rows are pruned as the clock passes them.
 */
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { databaseFile, type Db } from "#db/client.ts";

export interface RateLimiter {
  take(key: string): boolean;
  /**
   * The same take, answered once this turn of the event loop ends: every take asked for meanwhile
   * is written in one transaction. Under load a commit is most of a take's cost, so the busiest
   * route (the visitors' beacons) pays it once for many requests instead of once for each (ADR 181).
   */
  takeSoon(key: string): Promise<boolean>;
}

/** The shared buckets: one SQLite connection per database, or a private in-memory one. */
export type LimitStore = Database.Database;

export interface RateLimiterOptions {
  /** The clock: AppDeps.now, so tests drive it. */
  now?: () => Date;
  /** Where the buckets are kept (`limitStoreFor(deps.db)`); a private in-memory store without it. */
  store?: LimitStore;
  /** Names this limit in the store, apart from the others' keys (default: its capacity and rate). */
  name?: string;
}

export const LIMITS_FILE = "limits.db";

/** Opens (and creates) a store: a file shared by processes, or ":memory:". */
export function openLimitStore(path: string): LimitStore {
  const store = new Database(path);
  store.pragma("journal_mode = WAL");
  store.pragma("busy_timeout = 5000");
  // Counters, not records: a crash may lose the last few, which only lets a client a little further.
  store.pragma("synchronous = OFF");
  store.exec(
    `CREATE TABLE IF NOT EXISTS buckets (
       name TEXT NOT NULL,
       key TEXT NOT NULL,
       tokens REAL NOT NULL,
       at INTEGER NOT NULL,
       PRIMARY KEY (name, key)
     ) WITHOUT ROWID;
     CREATE INDEX IF NOT EXISTS buckets_name_at ON buckets (name, at);`,
  );
  return store;
}

const stores = new WeakMap<Db, LimitStore>();

/** The store beside this database (DATA_DIR/limits.db), opened once per connection; in memory for an in-memory database. */
export function limitStoreFor(db: Db): LimitStore {
  let store = stores.get(db);
  if (!store) {
    const file = databaseFile(db);
    store = openLimitStore(file ? join(dirname(file), LIMITS_FILE) : ":memory:");
    stores.set(db, store);
  }
  return store;
}

/** How often (on the limiter's clock) a limiter prunes its full buckets. */
const PRUNE_EVERY_MS = 60_000;

export function createRateLimiter(capacity: number, perSecond: number, { now = () => new Date(), store, name }: RateLimiterOptions = {}): RateLimiter {
  const db = store ?? openLimitStore(":memory:");
  const bucket = name ?? `${capacity}/${perSecond}`;
  // Refill since the last take (never negative: a clock that went back gives nothing back), capped.
  const refilled = "min(@capacity, tokens + max(0, @at - at) / 1000.0 * @perSecond)";
  const take = db.prepare<{ name: string; key: string; capacity: number; perSecond: number; at: number }, { tokens: number }>(
    `INSERT INTO buckets (name, key, tokens, at) VALUES (@name, @key, @capacity - 1, @at)
     ON CONFLICT (name, key) DO UPDATE SET tokens = ${refilled} - 1, at = max(at, @at)
     WHERE ${refilled} >= 1
     RETURNING tokens`,
  );
  // A bucket untouched for as long as an empty one takes to fill is full: the same as no row.
  const fullAfterMs = Math.ceil((capacity / perSecond) * 1000);
  const prune = db.prepare<{ name: string; before: number }>("DELETE FROM buckets WHERE name = @name AND at < @before");
  let prunedAt = -Infinity;
  const takeOne = (key: string, at: number) => {
    if (at - prunedAt >= PRUNE_EVERY_MS) {
      prune.run({ name: bucket, before: at - fullAfterMs });
      prunedAt = at;
    }
    return take.get({ name: bucket, key, capacity, perSecond, at }) !== undefined;
  };
  type Waiting = { key: string; at: number; answer: (taken: boolean) => void; fail: (err: unknown) => void };
  let waiting: Waiting[] = [];
  const flush = () => {
    const batch = waiting;
    waiting = [];
    try {
      const taken = db.transaction(() => batch.map(({ key, at }) => takeOne(key, at))).immediate();
      batch.forEach((w, i) => w.answer(taken[i]!));
    } catch (err) {
      for (const w of batch) w.fail(err);
    }
  };
  return {
    take: (key) => takeOne(key, now().getTime()),
    takeSoon: (key) =>
      new Promise((answer, fail) => {
        if (waiting.length === 0) setImmediate(flush);
        waiting.push({ key, at: now().getTime(), answer, fail });
      }),
  };
}
