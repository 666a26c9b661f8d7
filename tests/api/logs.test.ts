/**
 * The server's logs, read from a real server process at LOG_LEVEL=debug (ADR 190): one JSON line per
 * request with its id, method, route pattern, status, duration and the signed-in user; the mails,
 * jobs and errors a request or job causes under the same id; and nothing secret anywhere: after a
 * walk through signup with an e-mail code, sign-in with a password, two-factor, a password reset by
 * link, a Stripe webhook and a metrics scrape, none of the passwords, codes, tokens, cookies, secrets
 * or the client's full address appear in the output.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { totpAt } from "#api/services/two-factor.ts";
import { TEST_ORIGIN, type TestApp } from "#tests/support/app.ts";
import { browser, type Browser } from "#tests/support/auth-client.ts";
import { logLines, type LogLine } from "#tests/support/logs.ts";
import { lastMailTo, linkIn, mailsTo, sixDigitCode } from "#tests/support/mail.ts";
import { freePort } from "#tests/support/nginx.ts";
import { startServerProcess, type ServerProcess } from "#tests/support/server-process.ts";
import { signedDelivery, startStripeStandIn, stripeEvent, STRIPE_TEST_ENV, type StripeStandIn } from "#tests/support/stripe.ts";

const PASSWORD = "Sturdy-Password-42!";
const NEW_PASSWORD = "Another-Sturdy-Password-43!";
const METRICS_TOKEN = "metrics-token-0123456789abcdef0123456789";
/** The client's address as the proxy (TRUST_PROXY=1) reports it: only its /24 may be logged. */
const CLIENT_IP = "203.0.113.77";
/** Scheduled backups run as a job at start, encrypted with this. */
const BACKUP_PASSPHRASE = "backup-passphrase-0123456789-abcdef";

let dir: string;
let stripe: StripeStandIn;
let server: ServerProcess;
let base: string;
let outbox: string;
/** Every value that must never reach a log line. */
const secrets = new Set<string>([PASSWORD, NEW_PASSWORD, METRICS_TOKEN, CLIENT_IP, STRIPE_TEST_ENV.STRIPE_SECRET_KEY, STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET, BACKUP_PASSPHRASE]);
/** Request ids the server answered with, by what the request did. */
const ids: Record<string, string> = {};
let lines: LogLine[];
let output: string;
let resetToken: string;

/** A cookie-keeping client of the real server, through a proxy that reports CLIENT_IP. */
function client(): Browser {
  const over = {
    app: {
      request: async (path: string, init: RequestInit) => {
        const res = await fetch(`${base}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), "X-Forwarded-For": CLIENT_IP } });
        const id = res.headers.get("x-request-id");
        expect(id).toMatch(/^[A-Za-z0-9._-]{8,64}$/);
        ids[`${init.method} ${path}`] = id!;
        return res;
      },
    },
  };
  const b = browser(over as unknown as TestApp);
  const call = b.call;
  // Every cookie the server sets is a secret the logs must not hold.
  b.call = async (...args) => {
    const res = await call(...args);
    for (const value of b.jar.values()) secrets.add(value);
    return res;
  };
  return b;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "plinth-logs-"));
  mkdirSync(join(dir, "site"));
  stripe = await startStripeStandIn();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  outbox = join(dir, "data", "outbox");
  server = await startServerProcess({
    NODE_ENV: "test",
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_ORIGIN: TEST_ORIGIN,
    DATA_DIR: join(dir, "data"),
    PUBLISHED_DIR: join(dir, "published"),
    SITE_DIR: join(dir, "site"),
    LOG_LEVEL: "debug",
    LOG_REQUESTS: "1",
    TRUST_PROXY: "1",
    METRICS_TOKEN,
    BACKUP_EVERY: "1d",
    BACKUP_DIR: join(dir, "backups"),
    BACKUP_PASSPHRASE,
    ...STRIPE_TEST_ENV,
    STRIPE_API_BASE: stripe.base,
  });

  const stamp = Date.now().toString(36);
  const who = { username: `logs_${stamp}`, email: `logs_${stamp}@example.com` };
  const b = client();
  // Signup: the e-mail code, then the password.
  expect((await b.json("POST", "/api/auth/signup/start", who)).status).toBe(200);
  const code = sixDigitCode(lastMailTo(outbox, who.email)!);
  secrets.add(code);
  expect((await b.json("POST", "/api/auth/signup/verify", { code })).status).toBe(200);
  expect((await b.json("POST", "/api/auth/signup/complete", { password: PASSWORD, confirmPassword: PASSWORD, plan: "lite", agreedToTerms: true })).status).toBe(201);
  expect((await b.json("GET", "/api/me")).status).toBe(200);

  // A publish of the page signup published.
  expect((await b.json("POST", "/api/publish")).status).toBe(200);

  // Two-factor on: its secret, a code from it and the backup codes.
  const setup = await b.json("POST", "/api/auth/two-factor/setup", { password: PASSWORD });
  expect(setup.status).toBe(200);
  secrets.add(setup.body.secret);
  const totp = totpAt(setup.body.secret, new Date());
  secrets.add(totp);
  const enabled = await b.json("POST", "/api/auth/two-factor/enable", { code: totp });
  expect(enabled.status).toBe(200);
  for (const backup of enabled.body.backupCodes as string[]) secrets.add(backup);

  // A password reset by link: its token in a query string and a body.
  const other = client();
  expect((await other.json("POST", "/api/auth/forgot-password", { email: who.email })).status).toBe(200);
  const resetMail = async () => {
    // The reset mail is sent after the answer: wait for it to be written.
    for (let i = 0; i < 200; i++) {
      const mail = mailsTo(outbox, who.email).find((m) => m.subject === "Reset your Plinth password");
      if (mail) return mail;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("no reset mail");
  };
  const token = new URL(linkIn(await resetMail(), "/auth/update-password?token=")).searchParams.get("token")!;
  resetToken = token;
  secrets.add(token);
  expect((await other.json("GET", `/api/auth/reset-password?token=${token}`)).status).toBe(200);
  expect((await other.json("POST", "/api/auth/reset-password", { token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).status).toBe(200);

  // Sign in with the new password, then the two-factor step.
  const signIn = client();
  const login = await signIn.json("POST", "/api/auth/login", { email: who.email, password: NEW_PASSWORD, rememberMe: true });
  expect(login.status).toBe(200);
  const second = totpAt(setup.body.secret, new Date(Date.now() + 30_000));
  secrets.add(second);
  const verified = await signIn.json("POST", "/api/auth/login/two-factor", { code: second });
  expect(verified.status).toBeLessThan(500);
  // A wrong password: a 401 whose body names nothing secret either.
  expect((await signIn.json("POST", "/api/auth/login", { email: who.email, password: "Wrong-Password-99!" })).status).toBe(401);
  secrets.add("Wrong-Password-99!");

  // A Stripe webhook, signed with the endpoint's secret.
  const { payload, header } = signedDelivery(stripeEvent("customer.created", { id: "cus_logs", object: "customer" }, Math.floor(Date.now() / 1000)));
  secrets.add(header);
  const hook = await fetch(`${base}/api/billing/stripe/webhook`, { method: "POST", body: payload, headers: { "Content-Type": "application/json", "Stripe-Signature": header } });
  expect(hook.status).toBeLessThan(500);
  ids.webhook = hook.headers.get("x-request-id")!;

  // A metrics scrape with its token, and one with a wrong token.
  expect((await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(200);
  expect((await fetch(`${base}/metrics`, { headers: { Authorization: "Bearer wrong-token-wrong-token-wrong" } })).status).toBe(401);

  // A request id a proxy forwards is kept when it looks like one, replaced when it does not.
  ids.forwarded = (await fetch(`${base}/api/health`, { headers: { "X-Request-Id": "nginx-req-0123456789" } })).headers.get("x-request-id")!;
  ids.hostile = (await fetch(`${base}/api/health`, { headers: { "X-Request-Id": "<script>alert(1)</script> spaced out" } })).headers.get("x-request-id")!;

  // The backup job the server queued at start has finished.
  for (let i = 0; i < 400 && !logLines(server.output()).some((l) => l.msg === "job done" && l.jobKind === "backup"); i++) await new Promise((r) => setTimeout(r, 50));
  await server.stop();
  output = server.output();
  lines = logLines(output);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await stripe?.close();
  rmSync(dir, { recursive: true, force: true });
});

const requestLines = () => lines.filter((l) => l.msg === "request");

describe("the server's logs", () => {
  it("are JSON lines, each with a time, a level and a message", () => {
    const raw = output.split("\n").filter((l) => l.trim() !== "");
    expect(raw.length).toBeGreaterThan(20);
    for (const line of raw) {
      const entry = JSON.parse(line) as LogLine;
      expect(Date.parse(entry.time)).not.toBeNaN();
      expect(["trace", "debug", "info", "warn", "error", "fatal"]).toContain(entry.level);
      expect(typeof entry.msg).toBe("string");
    }
    // LOG_LEVEL=debug lets debug lines through (the outbox's).
    expect(lines.some((l) => l.level === "debug" && l.msg === "mail written to the outbox")).toBe(true);
  });

  it("write one line per request: its id, method, route pattern, status, duration, user and network", () => {
    const requests = requestLines();
    for (const [what, id] of Object.entries(ids).filter(([k]) => k.includes(" "))) {
      const line = requests.filter((l) => l.reqId === id);
      expect(line, what).toHaveLength(1);
      expect(line[0]).toMatchObject({ method: what.split(" ")[0], client: "203.0.113.0/24" });
      expect(typeof line[0]!.status).toBe("number");
      expect(typeof line[0]!.durationMs).toBe("number");
      expect(String(line[0]!.route)).toMatch(/^\/api\//);
    }
    // The pattern, not the path: the token in the query string and the username never show.
    expect(requests.find((l) => l.reqId === ids[`GET /api/auth/reset-password?token=${resetToken}`])?.route).toBe("/api/auth/reset-password");
    const me = requests.find((l) => l.reqId === ids["GET /api/me"]);
    expect(me).toMatchObject({ route: "/api/me", status: 200 });
    expect(me!.userId).toMatch(/^[a-z0-9]{10,}$/);
    expect(requests.find((l) => l.reqId === ids["POST /api/auth/two-factor/setup"])?.userId).toBe(me!.userId);
    expect(requests.find((l) => l.reqId === ids["POST /api/auth/signup/start"])?.userId).toBeUndefined();
    expect(requests.find((l) => l.reqId === ids.webhook)).toMatchObject({ method: "POST", route: "/api/billing/stripe/webhook" });
  });

  it("keep a proxy's well-formed request id and replace a hostile one", () => {
    expect(ids.forwarded).toBe("nginx-req-0123456789");
    expect(requestLines().some((l) => l.reqId === "nginx-req-0123456789" && l.route === "/api/health")).toBe(true);
    expect(ids.hostile).toMatch(/^[0-9a-f-]{36}$/);
    expect(output).not.toContain("<script>");
  });

  it("tie a publish and a webhook to their requests", () => {
    const publish = ids["POST /api/publish"];
    // The page was published at signup, so this publish of the same draft changes nothing.
    expect(lines.find((l) => l.msg === "published" && l.reqId === publish)).toMatchObject({ changed: false, version: 1 });
    expect(lines.some((l) => l.msg === "publish step" && l.reqId === publish && typeof l.durationMs === "number")).toBe(true);
    expect(lines.find((l) => l.msg === "stripe webhook" && l.reqId === ids.webhook)).toMatchObject({ type: "customer.created", ignored: true });
  });

  it("tie a mail to the request that sent it, and a job's lines to its id", () => {
    const signupMail = lines.filter((l) => l.msg === "mail sent" && l.reqId === ids["POST /api/auth/signup/start"]);
    expect(signupMail).toHaveLength(1);
    expect(signupMail[0]).toMatchObject({ toDomain: "example.com" });
    // The scheduled backup: its own line and the job's end carry the same job id.
    const done = lines.find((l) => l.msg === "job done" && l.jobKind === "backup");
    expect(typeof done?.jobId).toBe("string");
    expect(typeof done?.durationMs).toBe("number");
    expect(lines.some((l) => l.jobId === done!.jobId && String(l.msg).startsWith("Scheduled backup "))).toBe(true);
  });

  it("hold no password, code, token, cookie, secret or full client address", () => {
    expect(secrets.size).toBeGreaterThan(15);
    const leaked = [...secrets].filter((s) => output.includes(s));
    expect(leaked).toEqual([]);
    expect(output).not.toMatch(/authorization|cookie|stripe-signature/i);
    expect(output).not.toContain(CLIENT_IP);
  });
});
