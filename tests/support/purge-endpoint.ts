/**
 * A real HTTP server on a free loopback port standing in for a CDN's purge API: it records every
 * request (method, path and query, headers, body) and answers each with the status `answer` gives,
 * which may wait (a CDN that hangs) or look at the world first (is the page already in the bucket?).
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface PurgeRequestSeen {
  method: string;
  /** The path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface PurgeEndpoint {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  requests: PurgeRequestSeen[];
  /** The status for each request; 200 unless replaced. */
  answer: (request: PurgeRequestSeen) => number | Promise<number>;
  stop(): Promise<void>;
}

export async function startPurgeEndpoint(): Promise<PurgeEndpoint> {
  const endpoint: PurgeEndpoint = { origin: "", requests: [], answer: () => 200, stop: async () => undefined };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const seen: PurgeRequestSeen = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      endpoint.requests.push(seen);
      void Promise.resolve(endpoint.answer(seen)).then(
        (status) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ success: status < 300 })),
        () => res.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  endpoint.stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return endpoint;
}
