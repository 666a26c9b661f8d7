/**
 * POST /api/visitor/track answered by the Node server before the framework sees the request
 * (ADR 127). Every view and click of every published page arrives here, so this one route skips
 * the request and response objects and the middleware chain that the other routes need. What it
 * answers is the framework route's answer: the same desk (rules, limits, messages), the same
 * headers, the same error bodies; ADR 127 says which rules it repeats.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { API_HEADERS } from "./app.ts";
import type { AppDeps } from "./context.ts";
import { ApiError, errorBody, unexpectedError } from "./errors.ts";
import { clientAddress, incomingHeader } from "./services/client-key.ts";
import { rateLimited, readIncoming, VISITOR_HEADERS, visitorDesk } from "./routes/visitor.ts";
import { log } from "./log.ts";
import { beaconsRefused } from "./metrics.ts";

export const TRACK_PATH = "/api/visitor/track";

/** Answers a beacon and returns true, or returns false for any other request. */
export function beaconListener(deps: AppDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  const desk = visitorDesk(deps);
  const headers = Object.fromEntries([...API_HEADERS, ...VISITOR_HEADERS]);

  async function answer(req: IncomingMessage, res: ServerResponse) {
    try {
      const address = clientAddress(incomingHeader(req, "x-forwarded-for"), req.socket.remoteAddress, deps.env.TRUST_PROXY);
      if (!desk.limiter.take(address)) throw rateLimited();
      desk.track({ body: await readIncoming(req), userAgent: incomingHeader(req, "user-agent") ?? "", referer: incomingHeader(req, "referer"), address });
      res.writeHead(204, headers).end();
    } catch (err) {
      // A full write queue is counted by the writer (event-writer.ts); the rest here.
      if (err instanceof ApiError && err.status !== 503) beaconsRefused.inc({ reason: err.status === 429 ? "limited" : "invalid" });
      if (!(err instanceof ApiError)) log().error({ err, method: req.method, route: TRACK_PATH }, "Unhandled error");
      const failure = err instanceof ApiError ? err : unexpectedError();
      const body = JSON.stringify(errorBody(failure));
      res.writeHead(failure.status, { ...headers, ...failure.headers, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) }).end(body);
    }
  }

  return (req, res) => {
    const url = req.url ?? "";
    if (req.method !== "POST" || !(url === TRACK_PATH || url.startsWith(`${TRACK_PATH}?`))) return false;
    void answer(req, res);
    return true;
  };
}
