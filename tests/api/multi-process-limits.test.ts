/**
 * Limits across processes (ADR 180): two real servers on one DATA_DIR, and a client whose requests
 * alternate between them meets each limit at the same count as a client of one server, with the
 * same message. The per-address limits live in DATA_DIR/limits.db, the sign-in throttle in the
 * database, both shared by every process.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTACT_RATE_LIMITED_MESSAGE } from "#api/routes/contact.ts";
import { send } from "#tests/support/nginx-proxy.ts";
import { startSharedServers, type SharedServer } from "#tests/support/shared-data-servers.ts";

let dir: string;
let servers: SharedServer[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "plinth-limits-"));
  servers = await startSharedServers(dir, 2);
}, 120_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

/** Sends `n` requests from one client address, the i-th to `route(i)`; the answers' statuses and messages. */
async function sequence(n: number, from: string, route: (i: number) => SharedServer, path: string, body: (i: number) => unknown) {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await send(`${route(i).origin}${path}`, { method: "POST", from, body: body(i) });
    out.push(res.status < 400 ? String(res.status) : `${res.status} ${res.body?.error?.message}`);
  }
  return out;
}

const alone = () => servers[0]!;
const alternating = (i: number) => servers[i % 2]!;

describe("two server processes on one DATA_DIR", () => {
  it("hold a client to the contact form's limit at the same count as one process", async () => {
    const message = (i: number) => ({ name: "Ada", email: "ada@example.com", message: `Hello number ${i}` });
    const one = await sequence(7, "127.0.0.2", alone, "/api/contact", message);
    const two = await sequence(7, "127.0.0.3", alternating, "/api/contact", message);
    expect(one).toEqual(["201", "201", "201", "201", "201", `429 ${CONTACT_RATE_LIMITED_MESSAGE}`, `429 ${CONTACT_RATE_LIMITED_MESSAGE}`]);
    expect(two).toEqual(one);
  });

  it("block sign-ins to one e-mail after the same number of failures, wherever they were counted", async () => {
    const wrong = (email: string) => () => ({ email, password: "not the password 1", rememberMe: false });
    const one = await sequence(7, "127.0.0.4", alone, "/api/auth/login", wrong("first@example.com"));
    const two = await sequence(7, "127.0.0.5", alternating, "/api/auth/login", wrong("second@example.com"));
    expect(one.slice(0, 5)).toEqual(Array(5).fill("401 Invalid email or password"));
    expect(one[5]).toMatch(/^429 Too many attempts/);
    expect(two).toEqual(one);
  });
});
