/**
 * Debian's nginx serving a published folder with docs/nginx.conf, for the static-host tests: the
 * config exactly as documented, with its two placeholders filled and a private prefix for its
 * temporary files and pid.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { get, type IncomingHttpHeaders } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const NGINX = "/usr/sbin/nginx";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const addr = s.address();
      s.close(() => resolve(typeof addr === "object" && addr ? addr.port : 0));
    });
  });
}

async function waitForServer(url: string): Promise<void> {
  const until = Date.now() + 15_000;
  for (;;) {
    try {
      await fetch(url);
      return;
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

export interface StaticHost {
  origin: string;
  /** The folder nginx serves: publish into it. */
  root: string;
  stop(): void;
}

/**
 * docs/nginx.conf with its custom domain server block uncommented and the pages' server given
 * `server_name pagesHost`, as that block's comment tells an operator, Plinth at `upstream`.
 */
export function withCustomDomainBlock(conf: string, opts: { pagesHost: string; upstream: string }): string {
  const lines = conf.split("\n");
  const start = lines.indexOf("  # server {");
  const end = lines.indexOf("  # }", start);
  if (start < 0 || end < 0) throw new Error("docs/nginx.conf no longer has its commented custom domain block");
  for (let i = start; i <= end; i++) lines[i] = lines[i]!.replace(/^  # ?/, "  ");
  const named = lines.join("\n").replace("    listen __PORT__;\n    root __ROOT__;", `    listen __PORT__;\n    server_name ${opts.pagesHost};\n    root __ROOT__;`);
  if (!named.includes(`server_name ${opts.pagesHost};`)) throw new Error("docs/nginx.conf's pages server changed: the test cannot name it");
  return named.replace(/__UPSTREAM__/g, opts.upstream);
}

/**
 * Start nginx on a free port serving a fresh folder (readable by nginx's unprivileged workers); with
 * `customDomains`, docs/nginx.conf's custom domain block passes every other host to Plinth.
 */
export async function startStaticHost(opts: { customDomains?: { pagesHost: string; upstream: string } } = {}): Promise<StaticHost> {
  const dir = mkdtempSync(join(tmpdir(), "plinth-nginx-"));
  chmodSync(dir, 0o755);
  const root = join(dir, "published");
  const prefix = join(dir, "nginx");
  mkdirSync(root, { recursive: true });
  mkdirSync(join(prefix, "tmp"), { recursive: true });
  const port = await freePort();
  const shipped = readFileSync(new URL("../../docs/nginx.conf", import.meta.url), "utf8");
  const conf = (opts.customDomains ? withCustomDomainBlock(shipped, opts.customDomains) : shipped)
    .replace(/__ROOT__/g, root)
    .replace(/__PORT__/g, `127.0.0.1:${port}`)
    .replace("http {", `http {\n  access_log off;\n  client_body_temp_path ${prefix}/tmp;\n  proxy_temp_path ${prefix}/tmp;\n  fastcgi_temp_path ${prefix}/tmp;\n  uwsgi_temp_path ${prefix}/tmp;\n  scgi_temp_path ${prefix}/tmp;`);
  writeFileSync(join(prefix, "nginx.conf"), `pid ${prefix}/nginx.pid;\nerror_log stderr;\ndaemon off;\n${conf}`);
  const nginx: ChildProcess = spawn(NGINX, ["-p", prefix, "-c", join(prefix, "nginx.conf"), "-e", "stderr"], { stdio: ["ignore", "ignore", "pipe"] });
  const origin = `http://127.0.0.1:${port}`;
  await waitForServer(`${origin}/`);
  return {
    origin,
    root,
    stop() {
      if (nginx.pid) nginx.kill("SIGTERM");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A GET whose body is the bytes as sent, still compressed (fetch would decompress them), with the
 * answer's headers.
 */
export function getRaw(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    }).on("error", reject);
  });
}
