/**
 * The bench row "publishes/s with 2 processes vs 1" (issue 36, docs/capacity.md): real server
 * processes (api/server.ts) on one DATA_DIR and PUBLISHED_DIR, each owner publishing a changed draft
 * once over HTTP, 8 at a time. Rounds alternate one process, two and four (answering in turn), so
 * all see the same machine; each round publishes its own owners. The row passes with 0 failed
 * publishes; the ratio is reported, not held to a goal: one writer at a time is the design (SQLite),
 * and a publish takes a few milliseconds.
 */
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createSession, SESSION_COOKIE } from "#api/auth/session.ts";
import { createAccount } from "#api/services/accounts.ts";
import { closeDatabase, openDatabase } from "#db/client.ts";

const ROOT = resolve(import.meta.dirname, "../..");
type Row = (target: string, measured: string, pass: boolean) => void;

/** Owners per round, publishes in flight, and rounds of each kind. */
const PER_ROUND = Number(process.env.BENCH_PROCESS_PUBLISHES ?? 300);
const IN_FLIGHT = 8;
const ROUNDS = 2;

export interface Server {
  origin: string;
  child: ChildProcess;
  exited: Promise<void>;
}

/** A server process (api/server.ts) on `port` with `env`, once it says it is listening. The analytics rows start theirs here too. */
export async function startServer(env: Record<string, string>, port: number): Promise<Server> {
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", "api/server.ts"], {
    cwd: ROOT,
    env: { ...process.env, ...env, HOST: "127.0.0.1", PORT: String(port), LOG_REQUESTS: "0", LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let how = "";
  const exited = new Promise<void>((r) => child.once("exit", (code, signal) => r(void (how = signal ?? `code ${code}`))));
  await new Promise<void>((ok, fail) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += String(d);
      if (out.includes("Plinth is listening")) ok();
    });
    void exited.then(() => fail(new Error(`the bench server on ${port} exited (${how}):\n${out}`)));
  });
  return { origin, child, exited };
}

function post(origin: string, path: string, cookie: string, agent: http.Agent): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, method: "POST", path, agent, headers: { Cookie: cookie, Origin: "http://localhost:4321", "Content-Type": "application/json", "Content-Length": 0 } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** Every owner's first publish through `origins` in turn, IN_FLIGHT at a time: publishes per second and failures. */
async function round(origins: string[], cookies: string[]): Promise<{ perSecond: number; failed: number }> {
  const agents = origins.map(() => new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT }));
  let next = 0;
  let failed = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      for (let i = next++; i < cookies.length; i = next++) {
        const at = i % origins.length;
        const res = await post(origins[at]!, "/api/publish", cookies[i]!, agents[at]!).catch(() => ({ status: 0, body: "" }));
        if (res.status !== 200 || !(JSON.parse(res.body || "{}") as { changed?: boolean }).changed) {
          failed++;
          if (failed === 1) process.stderr.write(`processes: a publish failed: ${res.status} ${res.body.slice(0, 300)}\n`);
        }
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  for (const a of agents) a.destroy();
  return { perSecond: cookies.length / seconds, failed };
}

export async function benchProcesses(row: Row, log: (s: string) => void, freePort: () => Promise<number>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "plinth-bench-processes-"));
  const data = join(dir, "data");
  mkdirSync(data, { recursive: true });
  const env = { NODE_ENV: "production", DATA_DIR: data, PUBLISHED_DIR: join(dir, "published"), SITE_DIR: join(dir, "no-site"), PUBLIC_ORIGIN: "http://localhost:4321" };
  // The owners, each with a draft never published, and a session.
  const db = openDatabase({ path: join(data, "plinth.db") });
  const total = PER_ROUND * ROUNDS * 3 + IN_FLIGHT * 4;
  const cookies: string[] = [];
  const now = new Date();
  for (let i = 0; i < total; i++) {
    const username = `bench_proc_${i}`;
    const { userId } = createAccount(db, { email: `${username}@example.com`, username, passwordHash: null, emailVerified: true, now });
    cookies.push(`${SESSION_COOKIE}=${createSession(db, userId, { persistent: true, now }).token}`);
  }
  closeDatabase(db);

  const servers: Server[] = [];
  try {
    for (let i = 0; i < 4; i++) servers.push(await startServer(env, await freePort()));
    const origins = servers.map((s) => s.origin);
    let used = 0;
    const take = (n: number) => cookies.slice(used, (used += n));
    // Warm-up, unmeasured: each process renders a few pages first.
    for (const o of origins) await round([o], take(IN_FLIGHT));
    // Rounds alternate 1, 2 and 4 processes, so each sees the same machine.
    const widths = [1, 2, 4];
    const rates = widths.map((): number[] => []);
    let failed = 0;
    for (let r = 0; r < ROUNDS; r++) {
      log(`processes: round ${r + 1} of ${ROUNDS}…`);
      for (const [k, n] of widths.entries()) {
        const result = await round(origins.slice(0, n), take(PER_ROUND));
        rates[k]!.push(result.perSecond);
        failed += result.failed;
      }
    }
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    const [one, two, four] = rates.map(mean) as [number, number, number];
    row(
      "Publishes/s with 2 processes vs 1 on one data folder, same run: 0 failed (no ratio goal, ADR 194)",
      `${(two / one).toFixed(2)}× (1: ${one.toFixed(0)}/s, 2: ${two.toFixed(0)}/s, 4: ${four.toFixed(0)}/s; ${PER_ROUND * ROUNDS * widths.length} publishes, ${failed} failed)`,
      failed === 0,
    );
  } finally {
    for (const s of servers) s.child.kill("SIGTERM");
    await Promise.all(servers.map((s) => s.exited));
    rmSync(dir, { recursive: true, force: true });
  }
}
