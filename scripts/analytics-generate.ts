/**
 * npm run analytics:generate -- [--events 10000000] [--days 90] [--db data/plinth.db] [--username big_page]
 *
 * Writes a page with many analytics events straight into SQLite, for the bench and for trying a
 * popular page by hand: one owner (made if missing), a few links, and `events` views and clicks
 * spread over the last `days` days, with referrers, devices, countries and campaigns, plus the
 * rollups the reports read (ADR 071), summed in memory and written with the events in batches of
 * one transaction each.
 */
import { parseArgs } from "node:util";
import { eq } from "drizzle-orm";
import { createAccount } from "#api/services/accounts.ts";
import { DAY_MS, QUARTER_MS, rollupKeysOf, type AnalyticsEventInput } from "#api/services/analytics-store.ts";
import { closeDatabase, openDatabase, type Db } from "#db/client.ts";
import { newId } from "#db/ids.ts";
import { links, userProfiles } from "#db/schema.ts";

const REFERRERS = [null, null, "l.instagram.com", "www.instagram.com", "t.co", "www.tiktok.com", "www.youtube.com", "news.example", "blog.example"];
const DEVICES = ["mobile", "mobile", "mobile", "desktop", "tablet", "other", "bot"] as const;
const COUNTRIES = [null, "US", "GB", "DE", "FR", "IN", "JP", "BR", "CA", "AU", "NL", "ES"];
const CAMPAIGNS = [null, null, null, null, ["newsletter", "email", "spring"], ["instagram", "social", "launch"], ["tiktok", "social", "launch"]] as const;

export interface GenerateOptions {
  events: number;
  days: number;
  username: string;
  now?: Date;
  log?: (s: string) => void;
}

/** Generate into an open database; returns the owner's id. Deterministic for the same options. */
export function generateAnalytics(db: Db, o: GenerateOptions): { userId: string } {
  const now = (o.now ?? new Date()).getTime();
  let userId = db.select({ id: userProfiles.userId }).from(userProfiles).where(eq(userProfiles.username, o.username)).get()?.id;
  if (!userId) {
    ({ userId } = createAccount(db, { email: `${o.username}@example.com`, username: o.username, passwordHash: null, emailVerified: true, now: new Date(now) }));
  }
  const linkIds = Array.from({ length: 12 }, (_, i) => {
    const id = newId();
    db.insert(links).values({ id, userId: userId!, title: `Link ${i + 1}`, url: `https://example.com/${i + 1}`, orderIndex: i }).run();
    return id;
  });
  let seed = 42;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;

  const c = db.$client;
  const insert = c.prepare(
    `INSERT INTO analytics_events (user_id, kind, link_id, occurred_at, referrer_domain, device, country, utm_source, utm_medium, utm_campaign)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const rollup = c.prepare(
    `INSERT INTO analytics_rollups (user_id, dimension, grain, bucket, key, views, clicks, visitors) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_id, dimension, grain, bucket, key) DO UPDATE SET views = views + excluded.views, clicks = clicks + excluded.clicks, visitors = visitors + excluded.visitors`,
  );
  const start = now - o.days * DAY_MS;
  const step = (o.days * DAY_MS) / o.events;
  // Every (dimension, key) an event can count under, numbered, so sums are kept by number.
  const dimKeys: [string, string][] = [];
  const dimIndex = new Map<string, number>();
  const idx = (dimension: string, key: string) => {
    const k = `${dimension}\u0000${key}`;
    let n = dimIndex.get(k);
    if (n === undefined) dimIndex.set(k, (n = dimKeys.push([dimension, key]) - 1));
    return n;
  };
  const keysOf = new Map<string, number[]>();
  const q0 = Math.floor(start / QUARTER_MS);
  // quarter (relative) * width + dimension key -> [views, clicks, visitors]
  const WIDTH = 256;
  const sums = new Map<number, [number, number, number]>();
  const BATCH = 200_000;
  const t0 = Date.now();
  for (let done = 0; done < o.events; done += BATCH) {
    c.transaction(() => {
      for (let i = done; i < Math.min(o.events, done + BATCH); i++) {
        // In time order, as the writer stores them.
        const at = Math.floor(start + i * step);
        const click = random() < 0.25;
        const camp = click ? null : pick(CAMPAIGNS);
        const linkId = click ? pick(linkIds) : null;
        const referrer = pick(REFERRERS);
        const device = pick(DEVICES);
        const country = pick(COUNTRIES);
        insert.run(userId, click ? "link_click" : "page_view", linkId, at, referrer, device, country, camp?.[0] ?? null, camp?.[1] ?? null, camp?.[2] ?? null);
        // The keys of one combination are worked out once (rollupKeysOf, as the writer counts).
        const combo = `${linkId}|${referrer}|${device}|${country}|${camp?.[2]}|${camp?.[0]}`;
        let keys = keysOf.get(combo);
        if (!keys) {
          const e: AnalyticsEventInput = {
            userId: userId!,
            kind: click ? "link_click" : "page_view",
            linkId,
            occurredAt: new Date(at),
            referrerDomain: referrer,
            device,
            country,
            utmSource: camp?.[0] ?? null,
            utmMedium: camp?.[1] ?? null,
            utmCampaign: camp?.[2] ?? null,
          };
          keysOf.set(combo, (keys = rollupKeysOf(e).map(([d, k]) => idx(d, k))));
        }
        const view = click ? 0 : 1;
        // About one view in three is a visitor's first of the day.
        const visitor = view && random() < 0.35 ? 1 : 0;
        const base = (Math.floor(at / QUARTER_MS) - q0) * WIDTH;
        for (const k of keys) {
          let sum = sums.get(base + k);
          if (!sum) sums.set(base + k, (sum = [0, 0, 0]));
          sum[0] += view;
          sum[1] += 1 - view;
          if (k === 0) sum[2] += visitor;
        }
      }
    })();
    o.log?.(`${Math.min(o.events, done + BATCH).toLocaleString("en")} events (${Math.round((Math.min(o.events, done + BATCH) / (Date.now() - t0)) * 1000).toLocaleString("en")}/s)`);
  }
  if (dimKeys.length > WIDTH) throw new Error("too many rollup keys for the generator");
  c.transaction(() => {
    for (const [n, [views, clicks, visitors]] of sums) {
      const q = q0 + Math.floor(n / WIDTH);
      const [dimension, key] = dimKeys[n % WIDTH]!;
      rollup.run(userId, dimension, "quarter", q, key, views, clicks, visitors);
      rollup.run(userId, dimension, "day", Math.floor(q / (DAY_MS / QUARTER_MS)), key, views, clicks, visitors);
    }
  })();
  return { userId };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { events: { type: "string", default: "10000000" }, days: { type: "string", default: "90" }, db: { type: "string" }, username: { type: "string", default: "big_page" } },
  });
  const { parseEnv } = await import("#api/env.server.ts");
  const path = values.db ?? parseEnv().DATABASE_PATH;
  const db = openDatabase({ path });
  const events = Number(values.events);
  const days = Number(values.days);
  if (!Number.isInteger(events) || events < 1 || !Number.isInteger(days) || days < 1) throw new Error("--events and --days must be positive whole numbers");
  generateAnalytics(db, { events, days, username: values.username!, log: (s) => process.stderr.write(`\r${s}   `) });
  process.stderr.write(`\nWrote ${events.toLocaleString("en")} events for @${values.username} into ${path}\n`);
  closeDatabase(db);
}
