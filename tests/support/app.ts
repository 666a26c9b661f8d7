/**
 * An app over a real, temporary SQLite database and temporary folders, for API tests that call
 * app.request() with no network. The migrated database is built once per worker and copied.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeDatabase, openDatabase } from "#db/client.ts";
import { createServerApp } from "#api/site.ts";
import type { AppDeps } from "#api/context.ts";
import { createPublishTarget } from "#api/deps.ts";
import { parseEnv } from "#api/env.server.ts";
import { withCdnPurge } from "#api/jobs/runner.ts";
import { createMailer } from "#api/mail/mailer.ts";
import { countingMailer } from "#api/metrics.ts";
import { createEventWriter } from "#api/services/event-writer.ts";
import { createReportThread } from "#api/services/report-thread.ts";

let template: string | undefined;

function templateDb(): string {
  if (template && existsSync(template)) return template;
  const dir = mkdtempSync(join(tmpdir(), "plinth-template-"));
  const path = join(dir, "template.db");
  const db = openDatabase({ path });
  db.$client.pragma("wal_checkpoint(TRUNCATE)");
  db.$client.pragma("journal_mode = DELETE");
  closeDatabase(db);
  template = path;
  return path;
}

export const TEST_ORIGIN = "http://localhost:4321";

export interface TestApp {
  app: ReturnType<typeof createServerApp>;
  deps: AppDeps;
  dir: string;
  /** Messages written to the outbox, oldest first, as raw .eml text. */
  outbox(): string[];
  /** Writes the beacons still queued, then closes the database and removes the folders. */
  close(): Promise<void>;
}

export function createTestApp(overrides: Record<string, string> = {}): TestApp {
  const dir = mkdtempSync(join(tmpdir(), "plinth-test-"));
  const dataDir = join(dir, "data");
  const env = parseEnv({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    PUBLISHED_DIR: join(dir, "published"),
    SITE_DIR: join(dir, "site"),
    PUBLIC_ORIGIN: TEST_ORIGIN,
    LOG_REQUESTS: "0",
    ...overrides,
  });
  const dbPath = env.DATABASE_PATH;
  mkdirSync(dataDir, { recursive: true });
  copyFileSync(templateDb(), dbPath);
  const db = openDatabase({ path: dbPath });
  const mailer = countingMailer(createMailer({ from: env.MAIL_FROM, outboxDir: env.OUTBOX_DIR, log: false }));
  const deps: AppDeps = withCdnPurge({ db, env, mailer, now: () => new Date(), events: createEventWriter(db), reports: createReportThread(db), target: createPublishTarget(env) });
  const app = createServerApp(deps);
  return {
    app,
    deps,
    dir,
    outbox() {
      if (!existsSync(env.OUTBOX_DIR)) return [];
      return readdirSync(env.OUTBOX_DIR)
        .filter((f) => f.endsWith(".eml"))
        .sort()
        .map((f) => readFileSync(join(env.OUTBOX_DIR, f), "utf8"));
    },
    async close() {
      await deps.events.close();
      deps.reports.close();
      closeDatabase(db);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Headers a same-origin browser request carries. */
export function sameOrigin(extra: Record<string, string> = {}): Record<string, string> {
  return { "Sec-Fetch-Site": "same-origin", Origin: TEST_ORIGIN, "Content-Type": "application/json", ...extra };
}
