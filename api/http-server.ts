/**
 * The Node HTTP server: beacons are answered by their own listener (ADR 127), every other request
 * by the Hono app (the API, the site and the published pages).
 */
import { createServer, type Server } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { beaconListener } from "./beacon-listener.ts";
import type { AppDeps } from "./context.ts";
import { createServerApp } from "./site.ts";

export function createHttpServer(deps: AppDeps): Server {
  const handle = getRequestListener(createServerApp(deps).fetch);
  const beacon = beaconListener(deps);
  return createServer((req, res) => {
    if (!beacon(req, res)) void handle(req, res);
  });
}
