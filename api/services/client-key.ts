/**
 * The address a request came from, for rate limits and abuse hashes. The socket's address is used;
 * X-Forwarded-For is trusted only when TRUST_PROXY says a reverse proxy sets it, because otherwise any
 * client could send a fresh value with each request and walk around every limit.
 */
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";

export function clientKey(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    // app.request() in tests has no socket.
    return "unknown";
  }
}
