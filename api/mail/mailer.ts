/**
 * Outgoing mail through nodemailer. With SMTP_URL it sends; without it every message is written as an
 * .eml file under DATA_DIR/outbox (the embedded default the product and its tests run on) and a
 * debug line names the file. Neither the address nor the subject is logged: a subject may hold a code.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Transporter } from "nodemailer";
import { newId } from "#db/ids.ts";
import { log as logger } from "../log.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Where answers go when it is not the sender (the contact form: the visitor). */
  replyTo?: string;
  /** The sender's name in place of MAIL_FROM's; the address stays MAIL_FROM's (a lead mail: "Ada Lovelace via Plinth"). */
  fromName?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export interface MailerOptions {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  /** Log a debug line per message written to the outbox (default true). */
  log?: boolean;
}

/** A transport made on the first message: nodemailer loads with the first mail, not with every process (ADR 253). */
function transportOnFirstUse(options: string | { streamTransport: true; buffer: true; newline: "unix" }): () => Promise<Transporter> {
  let made: Promise<Transporter> | undefined;
  return () => (made ??= import("nodemailer").then(({ default: nodemailer }) => nodemailer.createTransport(options)));
}

/** The envelope's From: MAIL_FROM as configured, or its address under the message's own sender name. */
function senderOf(from: string, { fromName, ...message }: MailMessage) {
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from.trim();
  return { ...message, from: fromName ? { name: fromName, address } : from };
}

export function createMailer({ smtpUrl, from, outboxDir, log = true }: MailerOptions): Mailer {
  if (smtpUrl) {
    const transport = transportOnFirstUse(smtpUrl);
    return {
      async send(message) {
        await (await transport()).sendMail(senderOf(from, message));
      },
    };
  }
  const transport = transportOnFirstUse({ streamTransport: true, buffer: true, newline: "unix" });
  mkdirSync(outboxDir, { recursive: true });
  return {
    async send(message) {
      const info = await (await transport()).sendMail(senderOf(from, message));
      const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${newId()}.eml`;
      // Written under a temporary name, then renamed: a reader never sees half a message.
      const tmp = join(outboxDir, `.${name}.tmp`);
      writeFileSync(tmp, info.message as Buffer);
      renameSync(tmp, join(outboxDir, name));
      if (log) logger().debug({ file: name }, "mail written to the outbox");
    },
  };
}
