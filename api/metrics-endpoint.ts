/**
 * GET /metrics (ADR 191): Prometheus' text format, to `Authorization: Bearer METRICS_TOKEN` on the
 * server's own port, or to anyone on METRICS_PORT, a second listener bound to 127.0.0.1. With no
 * token, the server's port answers 404, as for a path that does not exist.
 */
import { createServer, type Server } from "node:http";
import type { Context } from "hono";
import type { AppDeps } from "./context.ts";
import { lastJobRun } from "./jobs/runner.ts";
import { bearerMatches, collectQueue, metricsText } from "./metrics.ts";

/** The metrics now, the job queue read from the database at this instant. */
async function scrape(deps: AppDeps): Promise<{ body: string; contentType: string }> {
  collectQueue(deps.db, deps.now(), lastJobRun(deps));
  return metricsText();
}

const NO_STORE = { "Cache-Control": "no-store" };

export function metricsHandler(deps: AppDeps) {
  const token = deps.env.METRICS_TOKEN;
  return async (c: Context) => {
    if (!token) return c.text("Not found", 404, NO_STORE);
    if (!bearerMatches(c.req.header("authorization"), token)) {
      return c.text("Unauthorized", 401, { ...NO_STORE, "WWW-Authenticate": 'Bearer realm="metrics"' });
    }
    const { body, contentType } = await scrape(deps);
    return c.body(body, 200, { ...NO_STORE, "Content-Type": contentType });
  };
}

/** The METRICS_PORT listener: /metrics and nothing else, on 127.0.0.1 only. */
export function createMetricsServer(deps: AppDeps): Server {
  return createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { ...NO_STORE, "Content-Type": "text/plain" }).end("Not found");
      return;
    }
    scrape(deps).then(
      ({ body, contentType }) => res.writeHead(200, { ...NO_STORE, "Content-Type": contentType }).end(req.method === "HEAD" ? undefined : body),
      () => res.writeHead(500, { "Content-Type": "text/plain" }).end("Metrics could not be collected"),
    );
  });
}
