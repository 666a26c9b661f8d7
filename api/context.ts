/**
 * What every route gets: the database, the configuration, the mailer and the clock. Routes are built
 * by factories taking these, so tests can build the app against a temporary database.
 */
import type { Db } from "#db/client.ts";
import type { PublishTarget } from "#renderer/publish-target.ts";
import type { Env } from "./env.server.ts";
import type { Mailer } from "./mail/mailer.ts";
import type { EventWriter } from "./services/event-writer.ts";
import type { ReportThread } from "./services/report-thread.ts";
import type { DomainResolver } from "./services/domains.ts";

export interface AppDeps {
  db: Db;
  env: Env;
  mailer: Mailer;
  /** The time now. Real time in the product; tests pass the real clock too and move data, not time. */
  now: () => Date;
  /** The analytics batching writer (ADR 072, 152) over `db`; written on shutdown. */
  events: EventWriter;
  /** Analytics reports, read on a thread of their own over `db` (ADR 116, 152). */
  reports: ReportThread;
  /** Where published pages are written: PUBLISHED_DIR or a bucket (ADR 129). */
  target: PublishTarget;
  /** DNS lookups of the custom domain checks (ADR 240); node:dns/promises when unset. */
  resolver?: DomainResolver;
}

import type { Session, SessionUser } from "./auth/session.ts";

/** Hono's environment for every route: the signed-in user, if any. */
export interface AppEnv {
  Variables: {
    user: SessionUser | null;
    session: Session | null;
  };
}
