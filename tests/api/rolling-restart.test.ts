/**
 * A rolling restart loses nothing (ADR 180): a real nginx with docs/nginx-proxy.conf in front of two
 * real server processes on one DATA_DIR, steady traffic (a published page and its beacons from many
 * clients), each server stopped with SIGTERM and started again in turn. Every request is answered,
 * and the database holds one event per beacon that was acknowledged.
 */
import { count, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { analyticsEvents } from "#db/schema.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "#tests/support/app.ts";
import { freePort } from "#tests/support/nginx.ts";
import { send, startNginxProxy, type Proxied } from "#tests/support/nginx-proxy.ts";
import { createApiOwner } from "#tests/support/owner.ts";
import { startServerProcess, type ServerProcess } from "#tests/support/server-process.ts";
import { sharedEnv } from "#tests/support/shared-data-servers.ts";

let t: TestApp | undefined;
let servers: ServerProcess[] = [];
let proxy: Proxied | undefined;

afterEach(async () => {
  await proxy?.stop();
  await Promise.all(servers.map((s) => s.stop()));
  t?.close();
  t = undefined;
  proxy = undefined;
  servers = [];
});

describe("a rolling restart behind nginx", () => {
  it("answers every page request and writes every beacon while each of two servers restarts in turn", async () => {
    t = createTestApp();
    const owner = createApiOwner(t, "trial");
    expect((await owner.call("POST", "/api/publish")).status).toBe(200);

    const ports: [number, number] = [await freePort(), await freePort()];
    const start = (i: number) => startServerProcess(sharedEnv(t!.dir, ports[i]!, { TRUST_PROXY: "1", PUBLIC_ORIGIN: TEST_ORIGIN }));
    servers = [await start(0), await start(1)];
    proxy = await startNginxProxy(ports);
    const origin = proxy.origin;

    const failures: string[] = [];
    let answered = 0;
    let beacons = 0;
    let running = true;
    // Four clients at a time, each from 50 addresses of its own, so no address meets the beacon limit.
    const client = async (k: number) => {
      for (let n = 0; running; n++) {
        const from = `127.0.${k + 1}.${10 + (n % 50)}`;
        try {
          if (n % 2 === 0) {
            const page = await send(`${origin}/${owner.username}`, { from });
            if (page.status !== 200) failures.push(`page ${page.status}`);
          } else {
            const beacon = await send(`${origin}/api/visitor/track`, {
              method: "POST",
              from,
              headers: { "Content-Type": "text/plain;charset=UTF-8", "User-Agent": "Mozilla/5.0 (X11; Linux x86_64)" },
              body: { type: "page_view", username: owner.username },
            });
            if (beacon.status === 204) beacons++;
            else failures.push(`beacon ${beacon.status} ${JSON.stringify(beacon.body)}`);
          }
        } catch (err) {
          failures.push(`request failed: ${(err as Error).message}`);
        }
        answered++;
      }
    };
    const traffic = Promise.all([0, 1, 2, 3].map(client));
    /** Waits until `more` further requests were answered: the traffic goes on meanwhile. */
    const after = async (more: number) => {
      const target = answered + more;
      while (answered < target && failures.length === 0) await new Promise((r) => setTimeout(r, 20));
    };

    await after(100);
    for (const i of [0, 1]) {
      // Stopped while requests are under way, then started again on its port.
      await servers[i]!.stop();
      expect(servers[i]!.output()).toContain("SIGTERM: finishing the requests under way, then stopping.");
      await after(50);
      servers[i] = await start(i);
      await after(100);
    }
    running = false;
    await traffic;
    // The servers stop as in a restart: every acknowledged beacon is written before they exit.
    await Promise.all(servers.map((s) => s.stop()));

    expect(failures).toEqual([]);
    expect(answered).toBeGreaterThan(300);
    const written = t.deps.db.select({ n: count() }).from(analyticsEvents).where(eq(analyticsEvents.userId, owner.userId)).get()!.n;
    expect(written).toBe(beacons);
    for (const s of servers) expect(s.output()).not.toMatch(/Unhandled error|Analytics: \d+ events could not be written/);
  }, 240_000);
});
