/**
 * Boot errors (issue 36): started with a configuration, a data folder or a port it cannot use, the
 * real server (api/server.ts, its own process) prints one clear line per problem on stderr, no
 * stack trace, and exits 1.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "#tests/support/nginx.ts";
import { serverBundle } from "#tests/support/node-bundle.ts";

const ROOT = join(import.meta.dirname, "../..");
const dir = mkdtempSync(join(tmpdir(), "plinth-boot-"));
// A built site of one page, so the start's only lines are the ones under test.
mkdirSync(join(dir, "site"));
writeFileSync(join(dir, "site", "index.html"), "<!doctype html><title>Plinth</title>");

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The server started with `env` over a minimal environment; resolves with its exit code and stderr once it exits. */
async function boot(env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const base = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "test", HOST: "127.0.0.1", LOG_REQUESTS: "0", SITE_DIR: join(dir, "site") };
  const server = await serverBundle();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [server], { cwd: ROOT, env: { ...base, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    let stdout = "";
    child.stderr.on("data", (d) => (stderr += String(d)));
    child.stdout.on("data", (d) => {
      stdout += String(d);
      // A server that starts is a failed test: stop it so the test ends.
      if (stdout.includes("Plinth is listening")) child.kill("SIGTERM");
    });
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stderr, stdout }));
  });
}

/** The lines a failed start printed; none of them is a stack frame. */
function linesOf(stderr: string): string[] {
  const lines = stderr.trim().split("\n");
  for (const line of lines) expect(line, "a stack frame").not.toMatch(/^\s+at |node:internal|\.ts:\d+/);
  return lines;
}

const folders = (name: string) => ({ DATA_DIR: join(dir, name, "data"), PUBLISHED_DIR: join(dir, name, "published") });

describe("the server refuses to start, one line per problem", () => {
  it("names every wrong variable of the configuration on a line of its own", async () => {
    const { code, stderr } = await boot({
      ...folders("config"),
      PORT: "eighty",
      CONTACT_TO: "not an address",
      BILLING_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "pk_test_51AbCdEfGhIjKl",
      LOG_REQUESTS: "maybe",
    });
    expect(code).toBe(1);
    expect(linesOf(stderr)).toEqual([
      "Invalid configuration: PORT: must be a whole number",
      "Invalid configuration: CONTACT_TO: must be an e-mail address, e.g. support@plinth.example",
      "Invalid configuration: LOG_REQUESTS: must be one of 0, 1, true, false",
      expect.stringMatching(/^Invalid configuration: SELLER_NAME: is required with a real billing provider/),
      expect.stringMatching(/^Invalid configuration: STRIPE_SECRET_KEY: must be a secret key/),
      expect.stringMatching(/^Invalid configuration: STRIPE_WEBHOOK_SECRET: is required with BILLING_PROVIDER=stripe/),
      expect.stringMatching(/^Invalid configuration: STRIPE_PRICE_MONTHLY: is required/),
      expect.stringMatching(/^Invalid configuration: STRIPE_PRICE_YEARLY: is required/),
    ]);
    // The wrong secret itself is never printed.
    expect(stderr).not.toContain("pk_test_51AbCdEfGhIjKl");
  });

  it("says a number out of range in words", async () => {
    const { code, stderr } = await boot({ ...folders("range"), PORT: "70000", BILLING_SWEEP_MS: "5" });
    expect(code).toBe(1);
    expect(linesOf(stderr)).toEqual(["Invalid configuration: PORT: must be 65535 or less", "Invalid configuration: BILLING_SWEEP_MS: must be 100 or more"]);
  });

  it("names the port when another process holds it", async () => {
    const port = await freePort();
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(port, "127.0.0.1", resolve));
    try {
      const { code, stderr } = await boot({ ...folders("port"), PORT: String(port) });
      expect(code).toBe(1);
      expect(linesOf(stderr)).toEqual([`Cannot listen on 127.0.0.1:${port}: another process uses the port (another Plinth?). Stop it, or set PORT.`]);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it("names DATA_DIR when a file stands where its folder should be", async () => {
    const blocked = join(dir, "blocked");
    writeFileSync(blocked, "not a folder");
    const { code, stderr } = await boot({ DATA_DIR: join(blocked, "data"), PUBLISHED_DIR: join(dir, "blocked-published"), PORT: String(await freePort()) });
    expect(code).toBe(1);
    expect(linesOf(stderr)).toEqual([`Cannot use DATA_DIR (${join(blocked, "data")}): a part of the path is a file, not a folder at ${join(blocked, "data")}.`]);
  });

  it("says the database file is not a database", async () => {
    const f = folders("garbage");
    mkdirSync(f.DATA_DIR, { recursive: true });
    writeFileSync(join(f.DATA_DIR, "plinth.db"), "x".repeat(4096));
    const { code, stderr } = await boot({ ...f, PORT: String(await freePort()) });
    expect(code).toBe(1);
    expect(linesOf(stderr)).toEqual([`${join(f.DATA_DIR, "plinth.db")} is not a SQLite database. Check DATA_DIR, or restore a backup there (npm run restore).`]);
  });
});
