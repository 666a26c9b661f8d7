/**
 * The real server (api/server.ts) as its own process, for a browser test that needs settings the
 * shared test server does not have (e.g. BILLING_PROVIDER=stripe). Its output is kept so a test can
 * read what it logged.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "../..");

export interface ServerProcess {
  /** Everything the server wrote to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

/** Starts the server with `env` on top of this process's environment; resolves once it listens. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "api/server.ts"], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
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
