/**
 * What npm run restore and npm run backup:verify read an encrypted backup with (ADR 160): the
 * passphrase from BACKUP_PASSPHRASE, the age identity from the file BACKUP_AGE_IDENTITY_FILE names;
 * when it is not set and the command runs in a terminal, it asks, without echoing what is typed.
 * Without a terminal (a cron job, a pipe) it says which variable to set.
 */
import { existsSync, readFileSync } from "node:fs";
import { archiveKind, type BackupSecrets } from "#api/backup/encryption.ts";
import { OperatorError } from "./operator.ts";

/** The secrets the archive needs; none for a plain archive. */
export async function secretsFor(archive: string, env: NodeJS.ProcessEnv = process.env): Promise<BackupSecrets> {
  if (!existsSync(archive)) return {};
  const kind = archiveKind(archive);
  if (kind === "plain") return {};
  if (kind === "passphrase") {
    if (env.BACKUP_PASSPHRASE) return { passphrases: [env.BACKUP_PASSPHRASE] };
    if (!process.stdin.isTTY) throw new OperatorError(`${archive} is encrypted with a passphrase: set BACKUP_PASSPHRASE, or run the command in a terminal to be asked for it.`);
    return { passphrases: [await askHidden(`Passphrase for ${archive}: `)] };
  }
  const file = env.BACKUP_AGE_IDENTITY_FILE;
  if (file) {
    if (!existsSync(file)) throw new OperatorError(`BACKUP_AGE_IDENTITY_FILE names ${file}, which does not exist.`);
    const identities = readFileSync(file, "utf8")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => /^AGE-SECRET-KEY-/.test(l));
    if (identities.length === 0) throw new OperatorError(`${file} holds no age identity (a line AGE-SECRET-KEY-1…, as age-keygen writes it).`);
    return { identities };
  }
  if (!process.stdin.isTTY) {
    throw new OperatorError(`${archive} is encrypted for an age recipient: set BACKUP_AGE_IDENTITY_FILE to the file holding its identity, or run the command in a terminal to be asked for it.`);
  }
  return { identities: [await askHidden(`age identity (AGE-SECRET-KEY-1…) for ${archive}: `)] };
}

/** Reads one line from the terminal without echoing it; Ctrl-C gives up. */
function askHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const input = process.stdin;
    process.stderr.write(question);
    input.setRawMode(true);
    input.resume();
    input.setEncoding("utf8");
    let typed = "";
    const done = (err?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.off("data", onData);
      process.stderr.write("\n");
      if (err) reject(err);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === "\r" || ch === "\n") return done();
        if (ch === "\u0003") return done(new OperatorError("Cancelled: nothing was read or written."));
        if (ch === "\u007f" || ch === "\b") typed = typed.slice(0, -1);
        else if (ch >= " ") typed += ch;
      }
    };
    input.on("data", onData);
  });
}
