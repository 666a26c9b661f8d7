/**
 * The Plinth app on a real Node HTTP server (@hono/node-server, as api/server.ts serves it) behind
 * Debian's nginx configured with docs/nginx-proxy.conf exactly as shipped (its two placeholders
 * filled, a private prefix for temporary files and pid). Requests are sent with node:http so a test
 * can choose the client's own loopback address (127.0.0.1, 127.0.0.2, ...) as a second real client.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve, type ServerType } from "@hono/node-server";
import { createServerApp } from "#api/site.ts";
import type { AppDeps } from "#api/context.ts";
import { freePort, NGINX } from "./nginx.ts";

export interface Proxied {
  /** nginx's address; requests reach Plinth only through it. */
  origin: string;
  /** What nginx wrote to its error log so far (startNginxProxy). */
  log?: () => string;
  stop(): Promise<void>;
}

export interface ProxyResponse {
  status: number;
  body: any;
}

/** One HTTP request from the given local address; the body is sent as JSON. */
export function send(url: string, opts: { method?: string; from?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<ProxyResponse> {
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: opts.method ?? "GET",
        localAddress: opts.from ?? "127.0.0.1",
        headers: { ...(payload ? { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(payload)) } : {}), ...opts.headers },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // Not JSON (nginx's own pages): the text.
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

function listen(deps: AppDeps): Promise<{ server: ServerType; port: number }> {
  const app = createServerApp(deps);
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) => resolve({ server, port: info.port }));
  });
}

async function waitFor(url: string): Promise<void> {
  const until = Date.now() + 15_000;
  for (;;) {
    try {
      const res = await send(url);
      if (res.status !== 502) return;
    } catch (err) {
      if (Date.now() > until) throw err;
    }
    if (Date.now() > until) throw new Error(`${url} did not answer`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Debian's nginx with docs/nginx-proxy.conf as shipped, in front of the two given app ports. */
export async function startNginxProxy(upstreams: [number, number]): Promise<Proxied> {
  const dir = mkdtempSync(join(tmpdir(), "plinth-proxy-"));
  const prefix = join(dir, "nginx");
  mkdirSync(join(prefix, "tmp"), { recursive: true });
  const port = await freePort();
  const conf = readFileSync(new URL("../../docs/nginx-proxy.conf", import.meta.url), "utf8")
    .replace(/__PORT__/g, `127.0.0.1:${port}`)
    .replace(/__UPSTREAM__/g, `127.0.0.1:${upstreams[0]}`)
    .replace(/__UPSTREAM_2__/g, `127.0.0.1:${upstreams[1]}`)
    .replace("http {", `http {\n  access_log off;\n  client_body_temp_path ${prefix}/tmp;\n  proxy_temp_path ${prefix}/tmp;\n  fastcgi_temp_path ${prefix}/tmp;\n  uwsgi_temp_path ${prefix}/tmp;\n  scgi_temp_path ${prefix}/tmp;`);
  writeFileSync(join(prefix, "nginx.conf"), `pid ${prefix}/nginx.pid;\nerror_log stderr;\ndaemon off;\n${conf}`);
  const nginx: ChildProcess = spawn(NGINX, ["-p", prefix, "-c", join(prefix, "nginx.conf"), "-e", "stderr"], { stdio: ["ignore", "ignore", "pipe"] });
  const exited = new Promise<void>((resolve) => nginx.once("exit", () => resolve()));
  // Read, or nginx blocks once the pipe is full: every refused upstream connection is a line.
  let log = "";
  nginx.stderr!.on("data", (d) => (log += String(d)));
  const origin = `http://127.0.0.1:${port}`;
  await waitFor(`${origin}/api/health`);
  return {
    origin,
    log: () => log,
    async stop() {
      if (nginx.exitCode === null) nginx.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Serve the app with these deps (TRUST_PROXY=1 for one nginx) and put nginx in front of it. */
export async function startBehindNginx(deps: AppDeps): Promise<Proxied> {
  const { server, port: appPort } = await listen(deps);
  const dir = mkdtempSync(join(tmpdir(), "plinth-proxy-"));
  const prefix = join(dir, "nginx");
  mkdirSync(join(prefix, "tmp"), { recursive: true });
  const port = await freePort();
  const conf = readFileSync(new URL("../../docs/nginx-proxy.conf", import.meta.url), "utf8")
    .replace(/__PORT__/g, `127.0.0.1:${port}`)
    .replace(/__UPSTREAM__/g, `127.0.0.1:${appPort}`)
    // One app here: the second upstream line names it too.
    .replace(/__UPSTREAM_2__/g, `127.0.0.1:${appPort}`)
    .replace("http {", `http {\n  access_log off;\n  client_body_temp_path ${prefix}/tmp;\n  proxy_temp_path ${prefix}/tmp;\n  fastcgi_temp_path ${prefix}/tmp;\n  uwsgi_temp_path ${prefix}/tmp;\n  scgi_temp_path ${prefix}/tmp;`);
  writeFileSync(join(prefix, "nginx.conf"), `pid ${prefix}/nginx.pid;\nerror_log stderr;\ndaemon off;\n${conf}`);
  const nginx: ChildProcess = spawn(NGINX, ["-p", prefix, "-c", join(prefix, "nginx.conf"), "-e", "stderr"], { stdio: ["ignore", "ignore", "pipe"] });
  const origin = `http://127.0.0.1:${port}`;
  await waitFor(`${origin}/api/health`);
  return {
    origin,
    async stop() {
      if (nginx.pid) nginx.kill("SIGTERM");
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // nginx keeps idle upstream connections open (keepalive): they end with the server.
        (server as Server).closeAllConnections();
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
