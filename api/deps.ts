import { openDatabase } from "#db/client.ts";
import { createEventWriter } from "./services/event-writer.ts";
import { createReportThread } from "./services/report-thread.ts";
import type { AppDeps } from "./context.ts";
import { parseEnv, type Env } from "./env.server.ts";
import { createMailer } from "./mail/mailer.ts";

/** The real parts, chosen by the environment: the server and the scripts share this. */
export function createDeps(env: Env = parseEnv()): AppDeps {
  const db = openDatabase({ path: env.DATABASE_PATH });
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, outboxDir: env.OUTBOX_DIR });
  return { db, env, mailer, now: () => new Date(), events: createEventWriter(db), reports: createReportThread(db) };
}
