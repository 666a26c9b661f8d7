/**
 * The Node HTTP server: beacons are answered by their own listener (ADR 127), every other request
 * by the Hono app (the API, the site and the published pages).
 */
import { createServer, type Server } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { beaconListener } from "./beacon-listener.ts";
import type { AppDeps } from "./context.ts";
import { createServerApp } from "./site.ts";

/**
 * How long a client may take to send a request (issue 35): its headers within 10 s, the whole
 * request within 30 s, or it gets 408 and the connection closes (Node's defaults are 60 s and 300 s,
 * which let slow clients hold connections open). Open connections are checked every second.
 */
export const HTTP_TIMEOUTS = { headersMs: 10_000, requestMs: 30_000, checkEveryMs: 1_000 };

/** Servers told to stop: what they still answer closes its connection behind it. */
const draining = new WeakSet<Server>();

export function createHttpServer(deps: AppDeps, timeouts: typeof HTTP_TIMEOUTS = HTTP_TIMEOUTS): Server {
  const handle = getRequestListener(createServerApp(deps).fetch);
  const beacon = beaconListener(deps);
  const options = { headersTimeout: timeouts.headersMs, requestTimeout: timeouts.requestMs, connectionsCheckingInterval: timeouts.checkEveryMs };
  const server = createServer(options, (req, res) => {
    if (draining.has(server)) res.setHeader("Connection", "close");
    if (!beacon(req, res)) void handle(req, res);
  });
  return server;
}

/**
 * The first step of a graceful stop (a rolling restart, ADR 180): no new connections; idle kept-alive
 * ones close now (a proxy that was about to reuse one retries on the other server), and each request
 * under way is answered, then its connection closes. `done` runs once the last connection is gone.
 */
export function stopAccepting(server: Server, done: () => void): void {
  draining.add(server);
  server.close(() => done());
  server.closeIdleConnections();
}
