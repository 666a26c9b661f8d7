/**
 * Configuration, parsed once at boot from the environment with embedded defaults: with nothing set,
 * the product runs on one machine (SQLite in DATA_DIR, pages in PUBLISHED_DIR, mail in an outbox).
 */
import { DEFAULT_PLATFORM_FEE_PERCENT } from "#core/connect.ts";
import { existsSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { createRequire } from "node:module";
import { z } from "zod";
import { parseTaxRatePercent } from "#core/invoice.ts";
import { hasInvisible } from "#core/text-rule.ts";
import { LOG_LEVELS } from "./log.ts";

/** Printed as the seller in test mode when SELLER_NAME is unset (ADR 103). */
export const TEST_MODE_SELLER_NAME = "Plinth (test mode)";

/** A real billing provider's invoices must name the operator who sells (ADR 103); test mode may print a stand-in. */
export const sellerNameRequired = (provider: string): boolean => provider !== "test";

const SELLER_MESSAGES = {
  name: "must be the seller's legal name, 1 to 120 characters on one line",
  nameRequired: "is required with a real billing provider: the seller's legal name, printed on every invoice",
  address: "must be a postal address of at most 6 lines and 300 characters (separate lines with a line break or \\n)",
  taxId: "must be a tax or VAT id: 2 to 40 letters, digits, spaces, dots, hyphens or slashes",
  taxRate: "must be a percentage from 0 to 100 with at most two decimals, e.g. 20 or 8.25",
} as const;

const sellerName = z
  .string()
  .trim()
  .min(1, SELLER_MESSAGES.name)
  .max(120, SELLER_MESSAGES.name)
  .refine((v) => !/[\r\n]/.test(v) && !hasInvisible(v), SELLER_MESSAGES.name);

/** Lines of the address: real line breaks or the two characters \n (what one-line env files allow). */
const sellerAddress = z
  .string()
  .max(300, SELLER_MESSAGES.address)
  .transform((v, ctx) => {
    const lines = v
      .split(/\r\n?|\n|\\n/)
      .map((l) => l.trim())
      .filter(Boolean);
    if (lines.length === 0 || lines.length > 6 || lines.some((l) => hasInvisible(l) || l.includes("\t"))) {
      ctx.addIssue({ code: "custom", message: SELLER_MESSAGES.address });
      return z.NEVER;
    }
    return lines;
  });

const taxRate = z.string().transform((v, ctx) => {
  const bp = parseTaxRatePercent(v.trim());
  if (bp === null) {
    ctx.addIssue({ code: "custom", message: SELLER_MESSAGES.taxRate });
    return z.NEVER;
  }
  return bp;
});

/** A setting left unset when empty. */
const unlessEmpty = z
  .string()
  .optional()
  .transform((v) => v || undefined);

/** A name shown to people, on one line: at most `max` characters, none of them control or invisible. */
const shownText = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max, `must be ${max} characters or fewer`)
    .refine((v) => !/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(v), "must not hold control or invisible characters")
    .optional();

const TARGET_MESSAGES = {
  target: "must be folder (the default: pages in PUBLISHED_DIR) or s3 (an S3-compatible bucket, with the S3_* values)",
  bucketRequired: "is required with PUBLISH_TARGET=s3: the name of the bucket pages are written to",
  bucket: "must be a bucket name: 3 to 63 lowercase letters, digits, dots or hyphens, starting and ending with a letter or digit",
  regionRequired: "is required with PUBLISH_TARGET=s3: the bucket's region, e.g. us-east-1 (auto for Cloudflare R2)",
  region: "must be a region name such as us-east-1, or auto",
  endpoint: "must be the http(s) origin of an S3-compatible service, with no path (leave it unset for Amazon S3)",
  prefix: "must be a key prefix such as pages/: letters, digits, dots, hyphens and underscores, in parts separated by slashes",
  pagesOriginRequired: "is required with PUBLISH_TARGET=s3: where visitors reach the pages, e.g. https://pages.example (the bucket's CDN)",
  pagesOrigin: "must be an http(s) origin such as https://pages.example, with no path",
  secretRequired: "is required when AWS_ACCESS_KEY_ID is set: the secret of the access key for the bucket",
  keyRequired: "is required when AWS_SECRET_ACCESS_KEY is set: the id of the access key for the bucket",
} as const;

/** The values that only a bucket target reads: set with the folder target, they are a mistake. */
const BUCKET_VALUES = ["S3_BUCKET", "S3_ENDPOINT", "S3_REGION", "S3_PREFIX", "PUBLIC_PAGES_ORIGIN"] as const;

/** S3_PREFIX as keys start: "" or "pages/" (for "pages", "/pages" or "pages/"). */
const keyPrefix = (prefix: string | undefined): string => {
  const trimmed = (prefix ?? "").replace(/^\/+|\/+$/g, "");
  return trimmed ? `${trimmed}/` : "";
};

const PURGE_MESSAGES = {
  url: "must be an http(s) URL the page's purge is POSTed to, e.g. https://api.cloudflare.com/client/v4/zones/ZONE_ID/purge_cache; it may name {url} (the page's address) and {path} (/username)",
  placeholder: "names an unknown placeholder: only {url} (the page's address) and {path} (/username) are filled in",
  credentials: "must not carry a user name or password: put the credential in CDN_PURGE_HEADER",
  header: "must be one request header as Name: value, e.g. Authorization: Bearer TOKEN (Cloudflare) or Fastly-Key: TOKEN (Fastly)",
  headerAlone: "is set but CDN_PURGE_URL is not: set CDN_PURGE_URL too, or unset CDN_PURGE_HEADER",
} as const;

/** The placeholders a purge URL may name (ADR 133). */
const PURGE_PLACEHOLDERS = ["{url}", "{path}"] as const;

/** The purge hook's values (ADR 133), each problem named by its variable. */
function checkPurge(env: { CDN_PURGE_URL?: string; CDN_PURGE_HEADER?: string }, problem: (name: string, message: string) => void): void {
  const template = env.CDN_PURGE_URL;
  if (env.CDN_PURGE_HEADER !== undefined) {
    if (template === undefined) problem("CDN_PURGE_HEADER", PURGE_MESSAGES.headerAlone);
    // A token: then a value of visible characters and spaces, nothing that could end the header.
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}:[ \t]*[\x21-\x7e][\x20-\x7e]{0,4000}$/.test(env.CDN_PURGE_HEADER)) problem("CDN_PURGE_HEADER", PURGE_MESSAGES.header);
  }
  if (template === undefined) return;
  const unknown = template.match(/\{[^}]*\}?/g)?.find((p) => !(PURGE_PLACEHOLDERS as readonly string[]).includes(p));
  if (unknown !== undefined) return problem("CDN_PURGE_URL", `${PURGE_MESSAGES.placeholder} (found ${unknown})`);
  let url: URL;
  try {
    url = new URL(template.replaceAll("{url}", "u").replaceAll("{path}", "/p"));
  } catch {
    return problem("CDN_PURGE_URL", PURGE_MESSAGES.url);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname || /\s/.test(template)) return problem("CDN_PURGE_URL", PURGE_MESSAGES.url);
  if (url.username || url.password) problem("CDN_PURGE_URL", PURGE_MESSAGES.credentials);
}

const BACKUP_MESSAGES = {
  every: "must be how often a backup is taken: a number and m, h or d, from 15m to 30d, e.g. 6h",
  keep: "must be how many scheduled backups are kept, 1 to 1000",
  target: "must be folder (backups in BACKUP_DIR, the default) or s3 (the bucket of the S3_* values)",
  dirRequired: "is required with BACKUP_EVERY and BACKUP_TARGET=folder: the folder scheduled backups are written to, off the machine's disk if it can be (a mounted share)",
  bucketRequired: "is required with BACKUP_TARGET=s3: the bucket backups go to (S3_BUCKET, or BACKUP_S3_BUCKET for another one)",
  regionRequired: "is required with BACKUP_TARGET=s3: the bucket's region, e.g. us-east-1 (auto for Cloudflare R2)",
  prefix: "must be a key prefix such as plinth-backups/: letters, digits, dots, hyphens and underscores, in parts separated by slashes",
  public: "puts backups among the keys of the published pages, which visitors may read: give them a prefix outside S3_PREFIX (set S3_PREFIX, e.g. pages/) or another bucket (BACKUP_S3_BUCKET)",
  passphrase: "must be at least 16 characters (the archive is encrypted with it through scrypt; make it long and random)",
  recipient: "must be an age recipient (age1…, from age-keygen or the identity file's public key line)",
  both: "and BACKUP_AGE_RECIPIENT are both set: an archive is encrypted with a passphrase or for a recipient, not both; unset one",
  servedDir: "is inside SITE_DIR or PUBLISHED_DIR, where anyone could download the backups: choose a folder the server does not serve",
} as const;

/** BACKUP_EVERY as milliseconds: "6h" is 21,600,000; null when malformed or out of range. */
export function backupInterval(value: string): number | null {
  const m = /^(\d{1,5})(m|h|d)$/.exec(value.trim());
  if (!m) return null;
  const ms = Number(m[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as "m" | "h" | "d"];
  return ms >= 15 * 60_000 && ms <= 30 * 86_400_000 ? ms : null;
}

/** Whether `dir` is `parent` or inside it, after every symbolic link of their existing parts is followed. */
function isInside(dir: string, parent: string): boolean {
  const real = (path: string) => {
    let existing = resolve(path);
    const rest: string[] = [];
    while (!existsSync(existing) && dirname(existing) !== existing) {
      rest.unshift(basename(existing));
      existing = dirname(existing);
    }
    return join(realpathSync(existing), ...rest);
  };
  const a = real(dir);
  const b = real(parent);
  return a === b || a.startsWith(b + sep);
}

type BackupValues = {
  BACKUP_EVERY?: string;
  BACKUP_TARGET: "folder" | "s3";
  BACKUP_DIR?: string;
  BACKUP_S3_BUCKET?: string;
  BACKUP_S3_PREFIX: string;
  BACKUP_PASSPHRASE?: string;
  BACKUP_AGE_RECIPIENT?: string;
  PUBLISH_TARGET: "folder" | "s3";
  S3_BUCKET?: string;
  S3_REGION?: string;
  S3_PREFIX?: string;
  SITE_DIR: string;
  PUBLISHED_DIR: string;
};

const require = createRequire(import.meta.url);
/** age, loaded only to check a recipient that is set (ADR 253). */
const ageSdk = (): typeof import("age-encryption") => require("age-encryption");

/** The scheduled backups' values (ADR 160), each problem named by its variable. */
function checkBackups(env: BackupValues, problem: (name: string, message: string) => void): void {
  if (env.BACKUP_EVERY !== undefined && backupInterval(env.BACKUP_EVERY) === null) problem("BACKUP_EVERY", BACKUP_MESSAGES.every);
  if (env.BACKUP_PASSPHRASE !== undefined && env.BACKUP_PASSPHRASE.length < 16) problem("BACKUP_PASSPHRASE", BACKUP_MESSAGES.passphrase);
  if (env.BACKUP_AGE_RECIPIENT !== undefined) {
    try {
      new (ageSdk().Encrypter)().addRecipient(env.BACKUP_AGE_RECIPIENT.trim());
    } catch {
      problem("BACKUP_AGE_RECIPIENT", BACKUP_MESSAGES.recipient);
    }
  }
  if (env.BACKUP_PASSPHRASE !== undefined && env.BACKUP_AGE_RECIPIENT !== undefined) problem("BACKUP_PASSPHRASE", BACKUP_MESSAGES.both);
  if (env.BACKUP_DIR !== undefined && [env.SITE_DIR, env.PUBLISHED_DIR].some((served) => isInside(env.BACKUP_DIR!, served))) problem("BACKUP_DIR", BACKUP_MESSAGES.servedDir);
  if (env.BACKUP_TARGET === "folder") {
    if (env.BACKUP_EVERY !== undefined && !env.BACKUP_DIR) problem("BACKUP_DIR", BACKUP_MESSAGES.dirRequired);
    return;
  }
  const bucket = env.BACKUP_S3_BUCKET ?? env.S3_BUCKET;
  if (!bucket) problem("S3_BUCKET", BACKUP_MESSAGES.bucketRequired);
  else if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes("..")) problem(env.BACKUP_S3_BUCKET ? "BACKUP_S3_BUCKET" : "S3_BUCKET", TARGET_MESSAGES.bucket);
  if (!env.S3_REGION) problem("S3_REGION", BACKUP_MESSAGES.regionRequired);
  const prefix = keyPrefix(env.BACKUP_S3_PREFIX);
  if (prefix === "" || prefix.length > 200 || !prefix.slice(0, -1).split("/").every((part) => /^[A-Za-z0-9_.-]+$/.test(part) && part !== "." && part !== "..")) problem("BACKUP_S3_PREFIX", BACKUP_MESSAGES.prefix);
  // Pages in the same bucket are public (the README's bucket policy): backups must not be among them.
  else if (env.PUBLISH_TARGET === "s3" && bucket === env.S3_BUCKET && prefix.startsWith(keyPrefix(env.S3_PREFIX))) problem("BACKUP_S3_PREFIX", BACKUP_MESSAGES.public);
}

/** What each Stripe value looks like, for the boot message that names the one that is wrong. */
const STRIPE_VALUES = {
  STRIPE_SECRET_KEY: { pattern: /^(sk_test_|sk_live_|rk_test_|rk_live_)[A-Za-z0-9_]{8,}$/, what: "a secret key (sk_test_…, sk_live_…) or restricted key (rk_…) from the Stripe dashboard" },
  STRIPE_WEBHOOK_SECRET: { pattern: /^whsec_[A-Za-z0-9+/=_]{8,}$/, what: "the webhook endpoint's signing secret (whsec_…)" },
  STRIPE_PRICE_MONTHLY: { pattern: /^price_[A-Za-z0-9_]{4,}$/, what: "the id of Plinth Plus's monthly price (price_…)" },
  STRIPE_PRICE_YEARLY: { pattern: /^price_[A-Za-z0-9_]{4,}$/, what: "the id of Plinth Plus's yearly price (price_…)" },
} as const;

function isHttpOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.origin === value.replace(/\/$/, "") && !url.username && !url.password;
  } catch {
    return false;
  }
}

type TargetValues = { PUBLISH_TARGET: "folder" | "s3"; BACKUP_TARGET?: "folder" | "s3"; AWS_ACCESS_KEY_ID?: string; AWS_SECRET_ACCESS_KEY?: string } & Partial<Record<(typeof BUCKET_VALUES)[number], string>>;

/** The publish target's values, each problem named by its variable. */
function checkPublishTarget(env: TargetValues, problem: (name: string, message: string) => void): void {
  if (env.AWS_ACCESS_KEY_ID && !env.AWS_SECRET_ACCESS_KEY) problem("AWS_SECRET_ACCESS_KEY", TARGET_MESSAGES.secretRequired);
  if (env.AWS_SECRET_ACCESS_KEY && !env.AWS_ACCESS_KEY_ID) problem("AWS_ACCESS_KEY_ID", TARGET_MESSAGES.keyRequired);
  if (env.PUBLISH_TARGET !== "s3") {
    // Backups to a bucket (BACKUP_TARGET=s3) read the bucket's own values, not the pages' ones.
    const backupBucket = env.BACKUP_TARGET === "s3" ? ["S3_BUCKET", "S3_ENDPOINT", "S3_REGION"] : [];
    const set = BUCKET_VALUES.find((name) => env[name] !== undefined && env[name] !== "" && !backupBucket.includes(name));
    if (set) problem("PUBLISH_TARGET", `is folder (the default) but ${set} is set: set PUBLISH_TARGET=s3 to publish pages to a bucket, or unset ${set}`);
    return;
  }
  if (!env.S3_BUCKET) problem("S3_BUCKET", TARGET_MESSAGES.bucketRequired);
  else if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(env.S3_BUCKET) || env.S3_BUCKET.includes("..")) problem("S3_BUCKET", TARGET_MESSAGES.bucket);
  if (!env.S3_REGION) problem("S3_REGION", TARGET_MESSAGES.regionRequired);
  else if (!/^[a-z0-9-]{1,40}$/.test(env.S3_REGION)) problem("S3_REGION", TARGET_MESSAGES.region);
  if (env.S3_ENDPOINT !== undefined && !isHttpOrigin(env.S3_ENDPOINT)) problem("S3_ENDPOINT", TARGET_MESSAGES.endpoint);
  const prefix = (env.S3_PREFIX ?? "").replace(/^\/+|\/+$/g, "");
  if (prefix.length > 200 || (prefix !== "" && !prefix.split("/").every((part) => /^[A-Za-z0-9_.-]+$/.test(part) && part !== "." && part !== ".."))) problem("S3_PREFIX", TARGET_MESSAGES.prefix);
  if (!env.PUBLIC_PAGES_ORIGIN) problem("PUBLIC_PAGES_ORIGIN", TARGET_MESSAGES.pagesOriginRequired);
  else if (!isHttpOrigin(env.PUBLIC_PAGES_ORIGIN)) problem("PUBLIC_PAGES_ORIGIN", TARGET_MESSAGES.pagesOrigin);
}

/** Google's OpenID Connect issuer, the default one. */
export const GOOGLE_OIDC_ISSUER = "https://accounts.google.com";

/** Whether the issuer is Google's (which takes Google's own `prompt=select_account`). */
export function isGoogleIssuer(issuer: string): boolean {
  try {
    return new URL(issuer).origin === GOOGLE_OIDC_ISSUER;
  } catch {
    return false;
  }
}

/** The provider's name when OIDC_PROVIDER_NAME is unset (ADR 202). */
function oidcProviderName(issuer: string, label: string | undefined): string {
  if (isGoogleIssuer(issuer)) return "Google";
  const named = label && /^(?:continue|sign in|log in) with (.+)$/i.exec(label)?.[1]?.trim();
  if (named) return named;
  try {
    return new URL(issuer).hostname;
  } catch {
    return issuer;
  }
}

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    HOST: z.string().default("0.0.0.0"),
    PORT: z.coerce.number().int().min(1).max(65535).default(4321),
    DATA_DIR: z.string().default("./data"),
    PUBLISHED_DIR: z.string().default("./published"),
    /** The built site (astro build). */
    SITE_DIR: z.string().default("./dist"),
    /** Where visitors reach the product, e.g. https://plinth.example; defaults to http://localhost:PORT. */
    PUBLIC_ORIGIN: z.url().optional(),
    /** Development only: the Astro dev server the site requests are proxied to. */
    ASTRO_DEV_URL: z.url().optional(),
    /** smtp://user:pass@host:port; without it mail goes to DATA_DIR/outbox as .eml files. */
    SMTP_URL: z.string().optional(),
    MAIL_FROM: z.string().default("Plinth <no-reply@plinth.localhost>"),
    /** Where the public contact form is delivered. */
    CONTACT_TO: z.email().default("support@plinth.localhost"),
    /**
     * How many reverse proxies in front of Plinth append to X-Forwarded-For: the client is the Nth
     * entry from the right (ADR 091). 0 (no proxy) keys limits on the socket's address. "false"
     * still means 0; "true" is refused, since it once meant the client-chosen leftmost entry.
     */
    TRUST_PROXY: z
      .string()
      .default("0")
      .transform((v, ctx) => {
        if (v === "false") return 0;
        if (/^\d{1,2}$/.test(v)) return Number(v);
        ctx.addIssue({
          code: "custom",
          message: v === "true"
            ? "now counts the reverse proxies in front of Plinth: set 1 behind one nginx (docs/nginx-proxy.conf), not true"
            : "must be the number of reverse proxies in front of Plinth, 0 to 99 (0: none)",
        });
        return z.NEVER;
      }),
    /**
     * Sign-in with an OpenID Connect provider (ADR 043, 150): Google unless OIDC_ISSUER names another.
     * The button shows only when a client id is set. The GOOGLE_* names are the same settings' older
     * names, still read when the OIDC_* one is unset.
     */
    OIDC_ISSUER: z.url().optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    /** The sign-in button's text; "Continue with Google" with Google, "Continue with single sign-on" otherwise. */
    OIDC_BUTTON_LABEL: shownText(60),
    /**
     * The provider's name in the mail that tells an owner it was linked to their account (ADR 202):
     * "Google" with Google's issuer; else what OIDC_BUTTON_LABEL names after "Continue with" or
     * "Sign in with"; else the issuer's host name.
     */
    OIDC_PROVIDER_NAME: shownText(40),
    GOOGLE_ISSUER: z.url().optional(),
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    /** The billing provider (ADR 080): the embedded test mode, or Stripe (ADR 104) with the STRIPE_* values below. */
    BILLING_PROVIDER: z.enum(["test", "stripe"]).default("test"),
    /** Stripe's secret or restricted API key (sk_test_…, sk_live_…, rk_…). Required with BILLING_PROVIDER=stripe. */
    STRIPE_SECRET_KEY: z.string().optional(),
    /** The signing secret of the Stripe webhook endpoint (whsec_…). Required with BILLING_PROVIDER=stripe. */
    STRIPE_WEBHOOK_SECRET: z.string().optional(),
    /** The Stripe prices of Plinth Plus, monthly and yearly (price_…). Required with BILLING_PROVIDER=stripe. */
    STRIPE_PRICE_MONTHLY: z.string().optional(),
    STRIPE_PRICE_YEARLY: z.string().optional(),
    /** Where the Stripe SDK sends its calls instead of https://api.stripe.com (an http(s) origin). */
    STRIPE_API_BASE: z.string().optional(),
    /** The operator's share of each tip and sale on a creator's page, taken as Stripe's application fee (ADR 230). */
    PLATFORM_FEE_PERCENT: z.coerce.number().min(0, "must be between 0 and 50").max(50, "must be between 0 and 50").default(DEFAULT_PLATFORM_FEE_PERCENT),
    /** 1: creators take payments through Stripe Connect (ADR 230); needs STRIPE_CONNECT_WEBHOOK_SECRET with BILLING_PROVIDER=stripe. */
    STRIPE_CONNECT: z.enum(["0", "1"], { error: "must be 0 or 1" }).default("0"),
    /** The signing secret of the Stripe Connect webhook endpoint (whsec_…), a second endpoint beside billing's. */
    STRIPE_CONNECT_WEBHOOK_SECRET: z.string().optional(),
    /** Who sells, printed on every invoice (ADR 103); all optional but the name with a real provider. */
    SELLER_NAME: sellerName.optional(),
    SELLER_ADDRESS: sellerAddress.optional(),
    SELLER_TAX_ID: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9][A-Za-z0-9 .\/-]{1,39}$/, SELLER_MESSAGES.taxId)
      .optional(),
    /** The tax included in every price, e.g. 20 for 20% VAT; 0 (none) when unset. */
    TAX_RATE_PERCENT: taxRate.optional(),
    /** The webhook signing secret; without it a random one is made at each start. */
    BILLING_WEBHOOK_SECRET: z.string().min(16).optional(),
    /** The longest the job worker sleeps; it otherwise wakes when the next job is due (ADR 102). */
    BILLING_SWEEP_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
    /** Days raw analytics events are kept for exports and recounts; the daily rollups are kept for good. */
    ANALYTICS_RAW_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
    /** Where payout requests are sent for processing; CONTACT_TO when unset. */
    PAYOUT_REQUESTS_TO: z.email().optional(),
    /** Where published pages are written (ADR 129): the folder PUBLISHED_DIR, or an S3-compatible bucket. */
    PUBLISH_TARGET: z.enum(["folder", "s3"], { error: TARGET_MESSAGES.target }).default("folder"),
    /** The bucket, with PUBLISH_TARGET=s3. */
    S3_BUCKET: z.string().optional(),
    /** An S3-compatible service's origin (MinIO, R2, B2, Ceph); unset for Amazon S3. */
    S3_ENDPOINT: z.string().optional(),
    S3_REGION: z.string().optional(),
    /** Put before every key, e.g. pages/; none when unset. */
    S3_PREFIX: z.string().optional(),
    /** The bucket's credentials are found the SDK's usual way; these two are checked to come as a pair. */
    AWS_ACCESS_KEY_ID: z.string().optional(),
    AWS_SECRET_ACCESS_KEY: z.string().optional(),
    /** Where visitors reach the pages in the bucket (its CDN), with PUBLISH_TARGET=s3. */
    PUBLIC_PAGES_ORIGIN: z.string().optional(),
    /**
     * After a public page changes, its cached copy is purged by a POST to this URL (ADR 133): a CDN's
     * purge API or any webhook, with {url} and {path} filled in, retried through the jobs queue.
     */
    CDN_PURGE_URL: unlessEmpty,
    /** One header sent with each purge, as Name: value (the purge API's credential). */
    CDN_PURGE_HEADER: unlessEmpty,
    /** How often a backup is taken by the job queue, e.g. 6h (ADR 160); none when unset. */
    BACKUP_EVERY: z.string().optional(),
    /** How many scheduled backups are kept; older ones go once a new one is verified. */
    BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(14),
    /** Where scheduled backups go: BACKUP_DIR, or the bucket of the S3_* values. */
    BACKUP_TARGET: z.enum(["folder", "s3"], { error: BACKUP_MESSAGES.target }).default("folder"),
    BACKUP_DIR: z.string().min(1).optional(),
    /** With BACKUP_TARGET=s3: another bucket than S3_BUCKET, and the key prefix of the backups. */
    BACKUP_S3_BUCKET: z.string().optional(),
    BACKUP_S3_PREFIX: z.string().default("plinth-backups/"),
    /** Encrypts every archive (age's scrypt recipient); restore asks for it. */
    BACKUP_PASSPHRASE: z.string().optional(),
    /** Encrypts every archive for this age recipient (age1…); restore asks for its identity. */
    BACKUP_AGE_RECIPIENT: z.string().optional(),
    /** Log one line per request (off in tests). */
    LOG_REQUESTS: z
      .enum(["0", "1", "true", "false"])
      .default("1")
      .transform((v) => v === "1" || v === "true"),
    /** The lowest level logged (ADR 190): fatal, error, warn, info (the default), debug, trace or silent. */
    LOG_LEVEL: z.enum(LOG_LEVELS).default("info"),
    /** Human-readable log lines (pino-pretty, a development dependency); on by default with NODE_ENV=development only. */
    LOG_PRETTY: z.enum(["0", "1", "true", "false"]).optional(),
    /**
     * The host name owners point their custom domains at (ADR 240): their CNAME names it, an apex's
     * A/AAAA records hold its addresses. Unset: custom domains are off.
     */
    CUSTOM_DOMAIN_TARGET: z
      .string()
      .optional()
      .transform((v) => v?.trim().toLowerCase().replace(/\.$/, "") || undefined)
      .refine(
        (v) => v === undefined || (v.length <= 253 && /^(?=.*[a-z])(?:(?!-)[a-z0-9-]{1,63}(?<!-)\.)+(?!-)[a-z0-9-]{1,63}(?<!-)$/.test(v)),
        "must be a host name such as domains.plinth.example (no scheme, port or path): the name owners point their domains at",
      ),
    /** The bearer token /metrics answers to (ADR 191); without it (and without METRICS_PORT) /metrics is 404. */
    METRICS_TOKEN: unlessEmpty.refine((v) => v === undefined || /^[\x21-\x7e]{24,200}$/.test(v), "must be 24 to 200 visible characters, no spaces (e.g. openssl rand -hex 32)"),
    /** A port on 127.0.0.1 that serves /metrics to anyone who can reach it, without a token. */
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  })
  .superRefine((env, ctx) => {
    const problem = (name: string, message: string) => ctx.addIssue({ code: "custom", path: [name], message });
    if (sellerNameRequired(env.BILLING_PROVIDER) && env.SELLER_NAME === undefined) problem("SELLER_NAME", SELLER_MESSAGES.nameRequired);
    if (env.STRIPE_API_BASE !== undefined && !isHttpOrigin(env.STRIPE_API_BASE)) problem("STRIPE_API_BASE", "must be an http(s) origin such as https://api.stripe.com, with no path");
    for (const name of ["ISSUER", "CLIENT_ID", "CLIENT_SECRET"] as const) {
      const current = env[`OIDC_${name}`];
      const older = env[`GOOGLE_${name}`];
      if (current !== undefined && older !== undefined && current !== older) problem(`GOOGLE_${name}`, `is the older name of OIDC_${name}, which is set to something else: keep only OIDC_${name}`);
    }
    if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT) problem("METRICS_PORT", "must differ from PORT: it is a second listener, on 127.0.0.1, that serves /metrics only");
    checkPublishTarget(env, problem);
    checkPurge(env, problem);
    checkBackups(env, problem);
    if (env.BILLING_PROVIDER !== "stripe") return;
    for (const [name, rule] of Object.entries(STRIPE_VALUES)) {
      const value = env[name as keyof typeof STRIPE_VALUES];
      if (!value) problem(name, `is required with BILLING_PROVIDER=stripe (${rule.what})`);
      else if (!rule.pattern.test(value)) problem(name, `must be ${rule.what}`);
    }
    if (env.STRIPE_CONNECT === "1") {
      const secret = env.STRIPE_CONNECT_WEBHOOK_SECRET;
      const rule = STRIPE_VALUES.STRIPE_WEBHOOK_SECRET;
      if (!secret) problem("STRIPE_CONNECT_WEBHOOK_SECRET", "is required with STRIPE_CONNECT=1 (the Connect webhook endpoint's signing secret, whsec_…)");
      else if (!rule.pattern.test(secret)) problem("STRIPE_CONNECT_WEBHOOK_SECRET", `must be ${rule.what}`);
    }
  })
  .transform(({ GOOGLE_ISSUER, GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET, ...env }) => {
    const publicOrigin = (env.PUBLIC_ORIGIN ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
    const issuer = env.OIDC_ISSUER ?? GOOGLE_ISSUER ?? GOOGLE_OIDC_ISSUER;
    return {
      ...env,
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: env.OIDC_CLIENT_ID ?? GOOGLE_CLIENT_ID,
      OIDC_CLIENT_SECRET: env.OIDC_CLIENT_SECRET ?? GOOGLE_CLIENT_SECRET,
      OIDC_BUTTON_LABEL: env.OIDC_BUTTON_LABEL ?? (isGoogleIssuer(issuer) ? "Continue with Google" : "Continue with single sign-on"),
      OIDC_PROVIDER_NAME: env.OIDC_PROVIDER_NAME ?? oidcProviderName(issuer, env.OIDC_BUTTON_LABEL),
      PUBLIC_ORIGIN: publicOrigin,
      LOG_PRETTY: env.LOG_PRETTY === undefined ? env.NODE_ENV === "development" : env.LOG_PRETTY === "1" || env.LOG_PRETTY === "true",
      DATA_DIR: resolve(env.DATA_DIR),
      PUBLISHED_DIR: resolve(env.PUBLISHED_DIR),
      S3_PREFIX: keyPrefix(env.S3_PREFIX),
      PUBLIC_PAGES_ORIGIN: env.PUBLIC_PAGES_ORIGIN?.replace(/\/+$/, ""),
      SITE_DIR: resolve(env.SITE_DIR),
      DATABASE_PATH: resolve(env.DATA_DIR, "plinth.db"),
      OUTBOX_DIR: resolve(env.DATA_DIR, "outbox"),
      PAYOUT_REQUESTS_TO: env.PAYOUT_REQUESTS_TO ?? env.CONTACT_TO,
      BACKUP: scheduledBackups(env),
      SELLER: {
        name: env.SELLER_NAME ?? TEST_MODE_SELLER_NAME,
        address: env.SELLER_ADDRESS ?? [],
        taxId: env.SELLER_TAX_ID ?? null,
        taxRateBp: env.TAX_RATE_PERCENT ?? 0,
      } satisfies Seller,
    };
  });

/** The scheduled backups (ADR 160), or null when BACKUP_EVERY is unset. */
export interface BackupSchedule {
  everyMs: number;
  keep: number;
  target: { kind: "folder"; dir: string } | { kind: "s3"; bucket: string; prefix: string };
  encryption: { passphrase: string } | { recipient: string } | null;
}

function scheduledBackups(env: { BACKUP_EVERY?: string; BACKUP_KEEP: number; BACKUP_TARGET: "folder" | "s3"; BACKUP_DIR?: string; BACKUP_S3_BUCKET?: string; BACKUP_S3_PREFIX: string; S3_BUCKET?: string; BACKUP_PASSPHRASE?: string; BACKUP_AGE_RECIPIENT?: string }): BackupSchedule | null {
  if (env.BACKUP_EVERY === undefined) return null;
  return {
    everyMs: backupInterval(env.BACKUP_EVERY)!,
    keep: env.BACKUP_KEEP,
    target: env.BACKUP_TARGET === "s3" ? { kind: "s3", bucket: (env.BACKUP_S3_BUCKET ?? env.S3_BUCKET)!, prefix: keyPrefix(env.BACKUP_S3_PREFIX) } : { kind: "folder", dir: resolve(env.BACKUP_DIR!) },
    encryption: backupEncryption(env),
  };
}

/** How archives are encrypted: with BACKUP_PASSPHRASE, for BACKUP_AGE_RECIPIENT, or not at all. */
export function backupEncryption(env: { BACKUP_PASSPHRASE?: string; BACKUP_AGE_RECIPIENT?: string }): BackupSchedule["encryption"] {
  if (env.BACKUP_PASSPHRASE !== undefined) return { passphrase: env.BACKUP_PASSPHRASE };
  if (env.BACKUP_AGE_RECIPIENT !== undefined) return { recipient: env.BACKUP_AGE_RECIPIENT.trim() };
  return null;
}

/** The seller as invoices print it. */
export interface Seller {
  name: string;
  address: string[];
  taxId: string | null;
  /** Hundredths of a percent: 2000 is 20%. */
  taxRateBp: number;
}

export type Env = z.output<typeof EnvSchema>;

/** Where visitors reach the pages: the bucket's CDN with the bucket target, else the product's own origin. */
export function pagesOrigin(env: Pick<Env, "PUBLISH_TARGET" | "PUBLIC_PAGES_ORIGIN" | "PUBLIC_ORIGIN">): string {
  return env.PUBLISH_TARGET === "s3" && env.PUBLIC_PAGES_ORIGIN ? env.PUBLIC_PAGES_ORIGIN : env.PUBLIC_ORIGIN;
}

/** A configuration the server cannot start with: one problem per variable, each on its own line. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** zod's own checks in the words of the other boot messages: what the value must be, never the value (it may be a secret). */
function plainIssue(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      return issue.expected === "number" || issue.expected === "int" ? "must be a whole number" : undefined;
    case "too_small":
      return issue.origin === "number" ? `must be ${String(issue.minimum)} or more` : `must be at least ${String(issue.minimum)} characters`;
    case "too_big":
      return issue.origin === "number" ? `must be ${String(issue.maximum)} or less` : `must be at most ${String(issue.maximum)} characters`;
    case "invalid_value":
      return `must be one of ${issue.values.map(String).join(", ")}`;
    case "invalid_format":
      return issue.format === "email" ? "must be an e-mail address, e.g. support@plinth.example" : issue.format === "url" ? "must be a URL such as https://plinth.example" : undefined;
    default:
      return undefined;
  }
}

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = EnvSchema.safeParse(source, { error: plainIssue });
  if (result.success) return result.data;
  const issues = [...result.error.issues];
  // zod skips the checks across variables while one value is malformed: they run again without the
  // malformed ones, so every problem is named at once rather than one start at a time.
  const named = new Set(issues.map((i) => String(i.path[0])));
  const again = EnvSchema.safeParse(Object.fromEntries(Object.entries(source).filter(([name]) => !named.has(name))), { error: plainIssue });
  if (!again.success) issues.push(...again.error.issues.filter((i) => !named.has(String(i.path[0]))));
  throw new ConfigError(issues.map((i) => `${i.path.join(".")}: ${i.message}`));
}
