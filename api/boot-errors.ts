/**
 * What the server prints when it cannot start (issue 36): one line per problem, naming the setting
 * to change, and no stack trace. A configuration lists every wrong variable at once; a folder, the
 * database or the port says which and why.
 */
import { ConfigError, type Env } from "./env.server.ts";

type SystemError = NodeJS.ErrnoException & { address?: string; port?: number };

const FILE_REASONS: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "the file system is read-only",
  ENOSPC: "the disk is full",
  ENOTDIR: "a part of the path is a file, not a folder",
  EEXIST: "a file is in the way of the folder",
  EISDIR: "it is a folder, not a file",
};

/** The lines that say why the server could not start; `env` once the configuration was read. */
export function bootErrorLines(err: unknown, env?: Pick<Env, "HOST" | "PORT" | "DATA_DIR" | "DATABASE_PATH">): string[] {
  if (err instanceof ConfigError) return err.problems.map((p) => `Invalid configuration: ${p}`);
  const e = (err ?? {}) as SystemError;
  const code = typeof e.code === "string" ? e.code : "";
  if (env && e.syscall === "listen") {
    const at = `${env.HOST}:${env.PORT}`;
    if (code === "EADDRINUSE") return [`Cannot listen on ${at}: another process uses the port (another Plinth?). Stop it, or set PORT.`];
    if (code === "EACCES") return [`Cannot listen on ${at}: permission denied (ports below 1024 need privileges). Set PORT to 1024 or more, behind a proxy.`];
    if (code === "EADDRNOTAVAIL") return [`Cannot listen on ${at}: HOST is not an address of this machine. Check HOST.`];
  }
  if (env && (e.syscall === "getaddrinfo" || code === "ENOTFOUND")) return [`Cannot listen on ${env.HOST}: HOST is not a name this machine knows. Check HOST.`];
  if (env && FILE_REASONS[code] && e.path) return [`Cannot use DATA_DIR (${env.DATA_DIR}): ${FILE_REASONS[code]} at ${e.path}.`];
  if (env && code.startsWith("SQLITE_")) {
    const db = env.DATABASE_PATH;
    if (code === "SQLITE_NOTADB") return [`${db} is not a SQLite database. Check DATA_DIR, or restore a backup there (npm run restore).`];
    if (code.startsWith("SQLITE_CORRUPT")) return [`The database ${db} is damaged (${e.message}). Restore a backup (npm run restore).`];
    if (code.startsWith("SQLITE_CANTOPEN")) return [`Cannot open the database ${db}. Check that DATA_DIR exists and the server may write there.`];
    if (code.startsWith("SQLITE_READONLY")) return [`The database ${db} is read-only. Let the server write DATA_DIR and the files in it.`];
    return [`Cannot open the database ${db}: ${e.message}`];
  }
  const message = err instanceof Error ? err.message : String(err);
  return [`Plinth cannot start: ${message.split("\n")[0]}`];
}

/** Prints the lines and ends the process with status 1. */
export function failBoot(err: unknown, env?: Parameters<typeof bootErrorLines>[1]): never {
  for (const line of bootErrorLines(err, env)) console.error(line);
  process.exit(1);
}
