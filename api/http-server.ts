/** The Node HTTP server: every request is answered by the Hono app (the API, the site and the published pages). */
import { createServer, type Server } from "node:http";
import { getRequestListener } from "@hono/node-server";
import type { AppDeps } from "./context.ts";
import { createServerApp } from "./site.ts";

export function createHttpServer(deps: AppDeps): Server {
  return createServer(getRequestListener(createServerApp(deps).fetch));
}
