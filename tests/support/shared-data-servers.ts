/**
 * Several real servers (api/server.ts, each its own process) on one DATA_DIR and PUBLISHED_DIR, as an
 * operator runs them behind a proxy (docs/operations.md): one port each.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "./nginx.ts";
import { startServerProcess, type ServerProcess } from "./server-process.ts";

export interface SharedServer extends ServerProcess {
  port: number;
  origin: string;
}

/** The environment of one server on `dir`'s data; `extra` on top. */
export function sharedEnv(dir: string, port: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: "test",
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_ORIGIN: "http://127.0.0.1",
    DATA_DIR: join(dir, "data"),
    PUBLISHED_DIR: join(dir, "published"),
    SITE_DIR: join(dir, "no-site"),
    LOG_REQUESTS: "0",
    ...extra,
  };
}

/** Starts `count` servers at once on `dir`'s data (a new database is migrated by whichever comes first). */
export async function startSharedServers(dir: string, count: number, extra: Record<string, string> = {}): Promise<SharedServer[]> {
  mkdirSync(join(dir, "no-site"), { recursive: true });
  const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
  const started = await Promise.allSettled(ports.map((port) => startServerProcess(sharedEnv(dir, port, extra))));
  const servers = started.flatMap((s, i) => (s.status === "fulfilled" ? [{ ...s.value, port: ports[i]!, origin: `http://127.0.0.1:${ports[i]}` }] : []));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) {
    await Promise.all(servers.map((s) => s.stop()));
    throw failed.reason;
  }
  return servers;
}
