/**
 * The server's one logger (ADR 190): JSON lines through pino on stdout, at LOG_LEVEL. Every line
 * written while a request or a job is handled carries its id (`reqId` or `jobId`), through
 * AsyncLocalStorage, so a request's line, the publish it ran, the mail it queued and any error
 * can be found together. Secrets never reach a line: code passes none, and pino's redaction
 * removes the usual places they hide (headers, cookies, passwords, codes, tokens) if one slips in.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash, randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import pino, { type DestinationStream, type Logger, type LoggerOptions } from "pino";

export type { Logger };

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Keys whose values are removed from any line, at the top and one or two levels down. */
const SECRET_KEYS = [
  "password",
  "newPassword",
  "currentPassword",
  "code",
  "token",
  "secret",
  "totp",
  "cookie",
  "cookies",
  "authorization",
  "Authorization",
  "set-cookie",
  "sessionId",
  "passphrase",
  "apiKey",
];
/** Nested `code` stays: an error's code (ECONNREFUSED) is what an operator needs; a body's code goes. */
const NESTED_KEYS = SECRET_KEYS.filter((k) => k !== "code");
export const REDACT_PATHS = [...SECRET_KEYS, ...NESTED_KEYS.map((k) => `*.${k}`), ...NESTED_KEYS.map((k) => `*.*.${k}`), "body.code", "req.headers", "headers"];

const BASE_OPTIONS: LoggerOptions = {
  base: { pid: process.pid },
  timestamp: pino.stdTimeFunctions.isoTime,
  // Levels as words ("info"), which people and log tools read without a table.
  formatters: { level: (label) => ({ level: label }) },
  redact: { paths: REDACT_PATHS, censor: "[redacted]" },
  messageKey: "msg",
};

/** Pretty lines for a person at a terminal: pino-pretty is a development dependency, loaded only here. */
function prettyStream(): DestinationStream | null {
  try {
    const pretty = createRequire(import.meta.url)("pino-pretty") as (opts: object) => DestinationStream;
    return pretty({ sync: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" });
  } catch {
    return null;
  }
}

let root: Logger = pino({ ...BASE_OPTIONS, level: levelOf(process.env.LOG_LEVEL) });

function levelOf(value: string | undefined): LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value ?? "") ? (value as LogLevel) : "info";
}

export interface LoggerSettings {
  level: LogLevel;
  /** Human-readable lines (development); JSON otherwise. */
  pretty?: boolean;
  /** Where lines go: stdout unless a test gives its own stream. */
  destination?: DestinationStream;
}

/** Sets the level and the output of every logger from now on (the server calls this at boot). */
export function configureLogger({ level, pretty = false, destination }: LoggerSettings): Logger {
  const stream = destination ?? (pretty ? prettyStream() : null) ?? pino.destination({ dest: 1, sync: true });
  root = pino({ ...BASE_OPTIONS, level }, stream);
  return root;
}

/** What a request or a job carries while it runs: its id, and facts the access line reports. */
export interface LogContext {
  bindings: Record<string, string>;
  logger?: Logger;
  /** The route pattern that answered, e.g. /api/links/:id (set by the app, read by the access line). */
  route?: string;
  userId?: string;
}

const storage = new AsyncLocalStorage<LogContext>();

/** The logger for the code running now: the request's or the job's, or the server's own. */
export function log(): Logger {
  const ctx = storage.getStore();
  if (!ctx) return root;
  ctx.logger ??= root.child(ctx.bindings);
  return ctx.logger;
}

/** The context of the request or job running now, if any. */
export function logContext(): LogContext | undefined {
  return storage.getStore();
}

/** Runs `fn` with `bindings` (e.g. { jobId }) on every line it logs, on top of the current ones. */
export function withLogContext<T>(bindings: Record<string, string>, fn: () => T): T {
  const outer = storage.getStore();
  return storage.run({ bindings: { ...outer?.bindings, ...bindings } }, fn);
}

/** Runs `fn` inside a fresh request context (the HTTP server, for each request). */
export function runWithContext<T>(ctx: LogContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

/** A request id another hop may hand us (nginx's $request_id, a load balancer's): short and plain. */
const FORWARDED_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * The id of a request: the one a trusted proxy sent in X-Request-Id when it looks like an id, else a
 * new one. A client talking to the server directly (no trusted proxy) cannot choose it.
 */
export function requestIdOf(header: string | string[] | undefined, trustProxy: number): string {
  if (trustProxy > 0 && typeof header === "string" && FORWARDED_ID.test(header)) return header;
  return randomUUID();
}

/**
 * A client address as logs may show it: an IPv4 address's /24 (203.0.113.0/24), an IPv6 address's
 * /48, never the whole address. Anything else is a short hash, so lines from one source still match.
 */
export function logAddress(address: string | undefined): string | undefined {
  if (!address) return undefined;
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(address);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`;
  if (/^[0-9a-f:]+(?:\/\d+)?$/i.test(address) && address.includes(":")) {
    const [head = "", tail = ""] = address.replace(/\/\d+$/, "").split("::");
    const groups = [...head.split(":").filter(Boolean), ...(tail ? Array(8).fill("0") : [])].slice(0, 3);
    while (groups.length < 3) groups.push("0");
    return `${groups.join(":")}::/48`;
  }
  return `h:${createHash("sha256").update(address).digest("hex").slice(0, 12)}`;
}
