/**
 * The operator's commands beside running servers (ADR 180): with two servers on one DATA_DIR, a
 * backup, a republish and an admin grant run and change what they should, and a restore, which would
 * replace the database under them, refuses and changes nothing.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "#api/services/accounts.ts";
import { closeDatabase, openDatabase, type Db } from "#db/client.ts";
import { users } from "#db/schema.ts";
import { npmRun } from "#tests/support/npm-run.ts";
import { startSharedServers, sharedEnv, type SharedServer } from "#tests/support/shared-data-servers.ts";

let dir: string;
let servers: SharedServer[] = [];
let db: Db;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "plinth-commands-"));
  servers = await startSharedServers(dir, 2);
  db = openDatabase({ path: join(dir, "data", "plinth.db") });
}, 120_000);
afterAll(async () => {
  closeDatabase(db);
  await Promise.all(servers.map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ ...process.env, ...sharedEnv(dir, servers[0]!.port) });

describe("commands on a DATA_DIR two servers are using", () => {
  it("back up, republish and grant admin beside them; restore refuses and leaves the database as it was", async () => {
    createAccount(db, { email: "ops@example.com", username: "ops_person", passwordHash: null, emailVerified: true, now: new Date() });
    const archive = join(dir, "backup.tar.gz");

    const backup = await npmRun("backup", [archive], env());
    expect(backup.code, backup.stderr).toBe(0);
    expect(existsSync(archive)).toBe(true);

    const republish = await npmRun("republish", [], env());
    expect(republish.code, republish.stderr).toBe(0);

    const grant = await npmRun("admin", ["grant", "ops@example.com"], env());
    expect(grant.code, grant.stderr).toBe(0);
    expect(grant.stdout).toContain("ops@example.com is now an admin.");
    expect(db.select({ role: users.role }).from(users).where(eq(users.email, "ops@example.com")).get()).toEqual({ role: "admin" });

    const restore = await npmRun("restore", [archive, "--force"], env());
    expect(restore.code).toBe(1);
    expect(restore.stderr.trim()).toBe(`${join(dir, "data", "plinth.db")} is open in another process (a running Plinth server?). Stop the server, then restore.`);
    // The backup was taken before the grant: a restore would have taken it back.
    expect(db.select({ role: users.role }).from(users).where(eq(users.email, "ops@example.com")).get()).toEqual({ role: "admin" });

    // Both servers still answer.
    for (const s of servers) expect((await fetch(`${s.origin}/api/health`)).status).toBe(200);
  }, 180_000);
});
