/**
 * The real server (api/server.ts) as its own process, for a browser test that needs settings the
 * shared test server does not have (e.g. BILLING_PROVIDER=stripe). Its output is kept so a test can
 * read what it logged. It runs from one bundle of its sources (node-bundle.ts), which starts in
 * about half the time and processor time the TypeScript loader takes; `npm start` and the browser
 * tests' own server still start through the loader.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeDatabase, openDatabase, type Db } from "#db/client.ts";
import { freePort } from "./nginx.ts";
import { serverBundle } from "./node-bundle.ts";

const ROOT = join(import.meta.dirname, "../..");

export interface ServerProcess {
  /** Everything the server wrote to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

/** Starts the server with `env` on top of this process's environment; resolves once it listens. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [await serverBundle()], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stderr.on("data", (d) => (output += String(d)));
    child.stdout.on("data", (d) => {
      output += String(d);
      if (output.includes("Plinth is listening")) resolve();
    });
    void exited.then(() => reject(new Error(`the server exited before it listened:\n${output}`)));
  });
  return {
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

export interface OwnServer {
  origin: string;
  /** Its DATA_DIR (the outbox is under it). */
  dataDir: string;
  server: ServerProcess;
  /** The server's database, for a test to arrange and check rows. */
  db: Db;
  /** Stops the server and removes its data folder. */
  stop(): Promise<void>;
}

/**
 * A server of its own on a free port and a throwaway data folder, with the test settings and what
 * `env` returns for its origin on top (a provider the test starts there can be told where to come back).
 */
export async function startOwnServer(name: string, env: (origin: string) => Promise<Record<string, string>>): Promise<OwnServer> {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const dir = mkdtempSync(join(tmpdir(), `plinth-${name}-`));
  const server = await startServerProcess({
    NODE_ENV: "test",
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_ORIGIN: origin,
    DATA_DIR: join(dir, "data"),
    PUBLISHED_DIR: join(dir, "published"),
    LOG_REQUESTS: "0",
    ...(await env(origin)),
  });
  const db = openDatabase({ path: join(dir, "data", "plinth.db"), migrate: false });
  return {
    origin,
    dataDir: join(dir, "data"),
    server,
    db,
    async stop() {
      closeDatabase(db);
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
