import { max, sql } from "drizzle-orm";
import { Hono } from "hono";
import pkg from "../../package.json" with { type: "json" };
import { userProfiles } from "#db/schema.ts";
import type { AppDeps } from "../context.ts";

/** Public service status for the /status page: health plus the latest publish time, no personal data. */
export function statusRoutes({ db }: AppDeps) {
  return (
    new Hono()
      // GET /api/status -> { ok, db, version, lastPublishAt: ISO string | null }
      .get("/", (c) => {
        let dbOk = false;
        let lastPublishAt: string | null = null;
        try {
          dbOk = db.get<{ ok: number }>(sql`select 1 as ok`)?.ok === 1;
          const row = db.select({ last: max(userProfiles.lastPublishedAt) }).from(userProfiles).get();
          const last = row?.last;
          if (last instanceof Date && !Number.isNaN(last.getTime())) lastPublishAt = last.toISOString();
          else if (typeof last === "number") lastPublishAt = new Date(last).toISOString();
        } catch {
          dbOk = false;
        }
        return c.json(
          { ok: dbOk, db: dbOk ? "ok" : "unavailable", version: pkg.version, lastPublishAt },
          dbOk ? 200 : 503,
        );
      })
  );
}
