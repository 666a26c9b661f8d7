/**
 * The SMTP path of the mailer against a real SMTP server on loopback (smtp-server, by nodemailer's
 * authors): with SMTP_URL set, mail leaves through SMTP with authentication, not into the outbox.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMailer } from "#api/mail/mailer.ts";

interface Received {
  from: string;
  to: string[];
  data: string;
  user: string | undefined;
}

let server: SMTPServer;
let port: number;
const received: Received[] = [];

beforeAll(async () => {
  server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: false,
    allowInsecureAuth: true,
    onAuth(auth, _session, cb) {
      if (auth.username === "mailer" && auth.password === "s3cret") cb(null, { user: auth.username });
      else cb(new Error("Invalid username or password"));
    },
    onData(stream, session, cb) {
      let data = "";
      stream.on("data", (chunk: Buffer) => (data += chunk.toString("utf8")));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          data,
          user: session.user as string | undefined,
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("mailer over SMTP", () => {
  it("sends through the SMTP server named by SMTP_URL and writes nothing to the outbox", async () => {
    const outbox = mkdtempSync(join(tmpdir(), "plinth-outbox-"));
    try {
      const mailer = createMailer({ smtpUrl: `smtp://mailer:s3cret@127.0.0.1:${port}`, from: "Plinth <no-reply@plinth.test>", outboxDir: join(outbox, "box") });
      await mailer.send({ to: "ada@example.com", subject: "Your code", text: "123456 is your code" });
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ from: "no-reply@plinth.test", to: ["ada@example.com"], user: "mailer" });
      expect(received[0]!.data).toContain("Subject: Your code");
      expect(received[0]!.data).toContain("123456 is your code");
      expect(existsSync(join(outbox, "box")) ? readdirSync(join(outbox, "box")) : []).toEqual([]);
    } finally {
      rmSync(outbox, { recursive: true, force: true });
    }
  });

  it("fails loudly when the SMTP server refuses the credentials", async () => {
    const mailer = createMailer({ smtpUrl: `smtp://mailer:wrong@127.0.0.1:${port}`, from: "no-reply@plinth.test", outboxDir: join(tmpdir(), "unused") });
    await expect(mailer.send({ to: "ada@example.com", subject: "x", text: "y" })).rejects.toThrow();
  });
});
