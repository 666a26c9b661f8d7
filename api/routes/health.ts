import { sql } from "drizzle-orm";
import { Hono } from "hono";
import pkg from "../../package.json" with { type: "json" };
import type { AppDeps } from "../context.ts";

export function healthRoutes({ db }: AppDeps) {
  return (
    new Hono()
      // GET /api/health - is the server up and the database answering
      .get("/", (c) => {
        let dbOk = false;
        try {
          dbOk = db.get<{ ok: number }>(sql`select 1 as ok`)?.ok === 1;
        } catch {
          dbOk = false;
        }
        return c.json({ ok: dbOk, db: dbOk ? "ok" : "unavailable", version: pkg.version }, dbOk ? 200 : 503);
      })
  );
}
