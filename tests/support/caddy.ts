/**
 * Debian's Caddy in front of a Plinth server with docs/Caddyfile, for the custom domain test: the
 * shipped file with its example names filled in, its certificates from Caddy's own CA (`local_certs`,
 * `tls internal`) instead of a public one, its ports free ones on loopback, and its storage a
 * private folder. Requests go through curl with --resolve, as a browser that resolved the name here.
 */
import { spawn, execFile, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./nginx.ts";

export const CADDY = "/usr/bin/caddy";

export interface CurlAnswer {
  /** curl's exit code: 0 when an answer came, 35 or 60 when TLS failed. */
  code: number;
  status: number | null;
  body: string;
  stderr: string;
}

export interface CaddyProxy {
  httpsPort: number;
  /** Where this Caddy keeps its certificates. */
  storage: string;
  /** An https request for `host` (resolved to 127.0.0.1), trusting Caddy's CA only; `sni` is the name the connection is made to when not `host`. */
  curl(host: string, path?: string, opts?: { sni?: string }): Promise<CurlAnswer>;
  output(): string;
  stop(): Promise<void>;
}

/** The shipped Caddyfile for this test: `originHost` as Plinth's origin, `upstream` as Plinth's address. */
export function testCaddyfile(opts: { originHost: string; upstream: string; httpPort: number; httpsPort: number; storage: string }): string {
  const shipped = readFileSync(new URL("../../docs/Caddyfile", import.meta.url), "utf8");
  const config = shipped
    .replaceAll("127.0.0.1:4321", opts.upstream)
    .replace(/^plinth\.example \{/m, `${opts.originHost} {`)
    .replace("\temail ops@plinth.example\n", `\tlocal_certs\n\tskip_install_trust\n\tadmin off\n\thttp_port ${opts.httpPort}\n\thttps_port ${opts.httpsPort}\n\tstorage file_system ${opts.storage}\n`)
    .replace("\ttls {\n\t\ton_demand\n\t}", "\ttls internal {\n\t\ton_demand\n\t}");
  // Every change above must have found its line: a Caddyfile that drifted fails here, not silently.
  for (const part of [opts.upstream, `${opts.originHost} {`, "local_certs", "tls internal {"]) if (!config.includes(part)) throw new Error(`docs/Caddyfile no longer has what the test adapts (${part})`);
  return config;
}

/**
 * `storage`: a folder of certificates to start from (a restart on the same storage); it outlives
 * this Caddy, where its own folder is removed on stop.
 */
export async function startCaddy(opts: { originHost: string; upstream: string; storage?: string }): Promise<CaddyProxy> {
  const dir = mkdtempSync(join(tmpdir(), "plinth-caddy-"));
  const storage = opts.storage ?? join(dir, "storage");
  const httpPort = await freePort();
  const httpsPort = await freePort();
  const file = join(dir, "Caddyfile");
  writeFileSync(file, testCaddyfile({ originHost: opts.originHost, upstream: opts.upstream, httpPort, httpsPort, storage }));
  let output = "";
  const caddy: ChildProcess = spawn(CADDY, ["run", "--config", file, "--adapter", "caddyfile"], {
    env: { ...process.env, HOME: dir, XDG_DATA_HOME: join(dir, "data"), XDG_CONFIG_HOME: join(dir, "config") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  caddy.stdout!.on("data", (d) => (output += String(d)));
  caddy.stderr!.on("data", (d) => (output += String(d)));
  const exited = new Promise<void>((resolve) => caddy.once("exit", () => resolve()));
  const rootCert = join(storage, "pki", "authorities", "local", "root.crt");

  const curl = (host: string, path = "/", o: { sni?: string } = {}) =>
    new Promise<CurlAnswer>((resolve) => {
      const name = o.sni ?? host;
      const args = ["--silent", "--show-error", "--max-time", "10", "--cacert", rootCert, "--resolve", `${name}:${httpsPort}:127.0.0.1`, "--write-out", "\n%{http_code}", `https://${name}:${httpsPort}${path}`];
      if (o.sni) args.push("--header", `Host: ${host}`);
      execFile("curl", args, { encoding: "utf8" }, (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
        const cut = stdout.lastIndexOf("\n");
        const status = Number(stdout.slice(cut + 1));
        resolve({ code, status: code === 0 && status > 0 ? status : null, body: stdout.slice(0, cut), stderr });
      });
    });

  // Ready once the origin's certificate is made and Plinth answers through Caddy.
  const until = Date.now() + 30_000;
  for (;;) {
    const answer = await curl(opts.originHost, "/api/health");
    if (answer.status === 200) break;
    if (caddy.exitCode !== null || Date.now() > until) {
      caddy.kill("SIGTERM");
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`Caddy did not serve ${opts.originHost}: ${answer.stderr}\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    httpsPort,
    storage,
    curl,
    output: () => output,
    async stop() {
      if (caddy.exitCode === null) caddy.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
