/**
 * Reading the mail outbox in tests: the raw .eml files the mailer writes, decoded enough to find the
 * recipient, the subject, a six-digit code and the links in the text.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface OutboxMail {
  file: string;
  to: string;
  /** The From header as written (a name is MIME-encoded when it is not ASCII). */
  from: string;
  subject: string;
  text: string;
}

/** Quoted-printable soft line breaks and escapes (nodemailer wraps long lines this way). */
function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

export function parseEml(raw: string, file = ""): OutboxMail {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, " ");
  const body = raw.slice(split).trim();
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, "im").exec(head)?.[1]?.trim() ?? "";
  const encoding = header("Content-Transfer-Encoding").toLowerCase();
  const text =
    encoding === "quoted-printable" ? decodeQuotedPrintable(body) : encoding === "base64" ? Buffer.from(body, "base64").toString("utf8") : body;
  return { file, to: header("To").replace(/^.*<([^>]+)>.*$/, "$1").toLowerCase(), from: header("From"), subject: header("Subject"), text };
}

export function readOutbox(dir: string): OutboxMail[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".eml"))
    .sort()
    .map((f) => parseEml(readFileSync(join(dir, f), "utf8"), f));
}

export function mailsTo(dir: string, to: string): OutboxMail[] {
  return readOutbox(dir).filter((m) => m.to === to.toLowerCase());
}

export function lastMailTo(dir: string, to: string): OutboxMail | undefined {
  return mailsTo(dir, to).at(-1);
}

export function sixDigitCode(mail: OutboxMail): string {
  const code = /\b(\d{6})\b/.exec(mail.subject)?.[1] ?? /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`No code in mail "${mail.subject}"`);
  return code;
}

export function linkIn(mail: OutboxMail, path: string): string {
  const link = new RegExp(`https?://\\S+${path.replace(/[/.?]/g, "\\$&")}\\S*`).exec(mail.text)?.[0];
  if (!link) throw new Error(`No ${path} link in mail "${mail.subject}"`);
  return link;
}
