/**
 * The README's first command, as a newcomer runs it on a fresh clone, so the README and the product
 * cannot drift apart: the command is read from README.md itself (the first `sh` block under "Two
 * commands") and run word for word with bash in a copy of the repository's files (`git ls-files`:
 * no node_modules/, dist/, build/, data/ or published/), on a free port, from its `npm ci` to the
 * server; /demo must answer 200 with the demo page. The install takes its packages from npm's cache.
 */
import { spawn, execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "#tests/support/nginx.ts";

const ROOT = join(import.meta.dirname, "../..");

/** The README's start command: the first shell block of its "Two commands" section. */
function startCommand(): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Two commands"));
  const block = /```sh\n([^\n]+)\n```/.exec(section);
  if (!block) throw new Error("README.md has no shell block under 'Two commands'");
  return block[1]!.trim();
}

/** The repository's files as a clone holds them (tracked, and new files not ignored), copied to `to`. */
function cleanCopy(to: string): void {
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" }).split("\0").filter(Boolean);
  for (const file of files) {
    // A file deleted in the work tree but not yet in the index is not part of the copy.
    if (!existsSync(join(ROOT, file))) continue;
    mkdirSync(dirname(join(to, file)), { recursive: true });
    cpSync(join(ROOT, file), join(to, file));
  }
}

let dir: string | undefined;
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the README's first command", () => {
  it("seeds the demo and starts the server on a clean copy of the repository, and /demo answers 200", async () => {
    const command = startCommand();
    dir = mkdtempSync(join(tmpdir(), "plinth-readme-"));
    cleanCopy(dir);
    for (const output of ["node_modules", "dist", "build", "data", "published"]) expect(existsSync(join(dir, output)), output).toBe(false);

    const port = await freePort();
    // A newcomer's shell: none of the test runner's variables.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== "NODE_ENV" && !name.startsWith("VITEST")));
    const child = spawn("bash", ["-c", command], { cwd: dir, env: { ...env, PORT: String(port), HOST: "127.0.0.1" }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let output = "";
    child.stdout.on("data", (d) => (output += String(d)));
    child.stderr.on("data", (d) => (output += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", () => output.includes("Plinth is listening") && resolve());
        void exited.then((code) => reject(new Error(`the command exited with ${code} before the server listened:\n${output}`)));
      });
      expect(output).toContain(`Demo page published at http://localhost:${port}/demo`);
      const res = await fetch(`http://127.0.0.1:${port}/demo`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("Demo Creator");
      // The site was built by the command too.
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
    } finally {
      // The whole group: npm, the build, the server.
      if (child.exitCode === null) process.kill(-child.pid!, "SIGTERM");
      await exited;
    }
  }, 600_000);
});
