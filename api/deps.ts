import { openDatabase } from "#db/client.ts";
import { bucketClient, bucketTarget, type BucketConfig } from "#renderer/bucket-target.ts";
import { folderTarget, type PublishTarget } from "#renderer/publish-target.ts";
import { createEventWriter } from "./services/event-writer.ts";
import { fileResolver } from "./services/dns-file-resolver.ts";
import type { DomainResolver } from "./services/domains.ts";
import { createReportThread } from "./services/report-thread.ts";
import type { AppDeps } from "./context.ts";
import { parseEnv, type Env } from "./env.server.ts";
import { createMailer } from "./mail/mailer.ts";
import { withCdnPurge } from "./jobs/runner.ts";
import { countingMailer, observedTarget } from "./metrics.ts";

/** The bucket the environment names (PUBLISH_TARGET=s3 and the S3_* values), or null for the folder. */
export function bucketOf(env: Env): BucketConfig | null {
  if (env.PUBLISH_TARGET !== "s3") return null;
  const client = bucketClient({ region: env.S3_REGION!, endpoint: env.S3_ENDPOINT, accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY });
  return { client, bucket: env.S3_BUCKET!, prefix: env.S3_PREFIX, publishedDir: env.PUBLISHED_DIR };
}

/** The publish target the environment names (ADR 129): PUBLISHED_DIR, or the bucket. */
export function createPublishTarget(env: Env): PublishTarget {
  const bucket = bucketOf(env);
  // Timed, and a bucket's refusals counted, for /metrics (ADR 191).
  return observedTarget(bucket ? bucketTarget(bucket) : folderTarget(env.PUBLISHED_DIR));
}

/**
 * The browser tests' DNS stand-in (api/services/dns-file-resolver.ts): only when NODE_ENV=test and
 * E2E_DNS_FILE are both set, as scripts/e2e-server.ts does. Otherwise undefined: the system's DNS.
 */
export function testResolver(env: Env): DomainResolver | undefined {
  const file = env.NODE_ENV === "test" ? process.env.E2E_DNS_FILE : undefined;
  return file ? fileResolver(file) : undefined;
}

/** The real parts, chosen by the environment: the server and the scripts share this. */
export function createDeps(env: Env = parseEnv()): AppDeps {
  const db = openDatabase({ path: env.DATABASE_PATH });
  const mailer = countingMailer(createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, outboxDir: env.OUTBOX_DIR }));
  return withCdnPurge({ db, env, mailer, now: () => new Date(), events: createEventWriter(db), reports: createReportThread(db), target: createPublishTarget(env), resolver: testResolver(env) });
}
